/**
 * The "stderr" panel of the match and replay pages: each bot's stderr of the match, shown only where the
 * viewer may read it (app/records/bot-stderr.ts decides; the page is handed only what it may show). What a
 * bot wrote is its own text, so every byte of it is escaped.
 */
import type { BotStderrView } from '../../app/records/bot-stderr.ts';
import { h, type Markup } from '../html.ts';

/** One bot's stderr: its size and what was cut, then the text. */
function panel(v: BotStderrView): Markup {
  const cut = v.cutBytes > 0 ? h` · ${v.cutBytes} bytes cut between its first and last bytes` : '';
  const body = v.text === '' ? h`<p class="note">It wrote nothing to stderr.</p>` : h`<pre class="stderr-text">${v.text}</pre>`;
  return h`<section class="stderr" data-bot="${v.bot}">
<h3>${v.bot} <span class="dim"><a href="/api/matches/${v.matchId}/stderr/${encodeURIComponent(v.bot)}">JSON</a>${cut}</span></h3>
${body}
</section>`;
}

/**
 * The panel of every readable stderr, under one heading; nothing at all when there is none, so a page
 * seen by someone who may not read any says nothing about it.
 */
export function stderrPanels(views: readonly BotStderrView[]): Markup {
  if (views.length === 0) return h``;
  return h`<h2 id="stderr">stderr</h2>
<p class="note">Shown to each bot's owner and the admins only.</p>
${views.map(panel)}`;
}
