import type { BotEntry } from '../../app/bots/bot-registry.ts';
import type { BotProfile } from '../../app/records/bot-profile.ts';
import { num, ms, pct, when } from '../format.ts';
import { h } from '../html.ts';
import { page } from '../layout.ts';

/** Every known bot and how it starts (never a token). */
export function botsPage(bots: readonly BotEntry[]): string {
  const body = h`<h1>Bots</h1><div class="scroll"><table id="bot-list"><thead><tr><th>bot</th><th>kind</th><th>started by</th></tr></thead><tbody>${bots.map(
    (b) => h`<tr><td><a href="/bots/${encodeURIComponent(b.name)}">${b.name}</a></td><td>${b.kind}</td><td><code>${b.how}</code></td></tr>`,
  )}</tbody></table></div>`;
  return page({ title: 'Bots', body });
}

/** One bot: how it starts, its classes and ranks, verdict counts, recent matches. */
export function botPage(p: BotProfile): string {
  const body = h`<h1>${p.bot.name} <span class="dim">${p.bot.kind}</span></h1>
<p>Started by <code>${p.bot.how}</code></p>
<h2>Classes</h2>
<div class="scroll"><table id="bot-classes"><thead><tr><th>class</th><th>rank</th><th>rating</th><th>95%</th><th>games</th><th>solved</th><th>mean moves</th><th>mean gap</th><th>median time</th></tr></thead><tbody>${p.classes.map(
    (c) => h`<tr><td><a href="/?class=${encodeURIComponent(c.puzzleClass)}">${c.puzzleClass}</a></td><td class="n">${c.rank}/${c.of}</td><td class="n">${num(c.rating)}</td><td class="n dim">${num(c.low)} … ${num(c.high)}</td><td class="n">${c.games}</td><td class="n">${pct(c.solveRate)}</td><td class="n">${num(c.meanMoves, 1)}</td><td class="n">${num(c.meanGap, 1)}</td><td class="n">${ms(c.medianWallMs)}</td></tr>`,
  )}</tbody></table></div>
<h2>Verdicts</h2>
<p id="verdicts">${Object.entries(p.verdicts).map(([v, n]) => h`<span class="chip">${v} ${n}</span> `)}</p>
<h2>Recent matches</h2>
<ul>${p.recent.map((m) => h`<li><a href="/matches/${m.id}">match ${m.id}</a> ${when(m.createdAt)} · ${m.bots.join(' vs ')} · ${m.status}</li>`)}</ul>`;
  return page({ title: p.bot.name, body });
}
