import type { MatchListing } from '../../app/matches/matches.ts';
import { MATCH_STATUSES, type MatchStatus } from '../../app/records/records.ts';
import { scramblesText } from '../../app/records/report-text.ts';
import { link, when } from '../format.ts';
import { h, type Markup } from '../html.ts';
import { page } from '../layout.ts';

/** Filters of the match list (as `arena matches`). */
export interface MatchFilter {
  readonly bot?: string;
  readonly puzzle?: string;
  readonly status?: MatchStatus;
  readonly limit: number;
}

/** A pair's W-D-L with the leader named first ("a +5 =1 −0 b"), as `arena matches` prints it. */
function standing(p: MatchListing['pairs'][number]): Markup {
  // Names never break inside ("ida-star -" / "-weight 3"); the line breaks between its parts when narrow.
  const line = (first: string, w: number, d: number, l: number, second: string) => h`<span class="nw">${first}</span> <span class="nw">+${w} =${d} −${l}</span> <span class="nw">${second}</span>`;
  return p.leader === p.b ? line(p.b, p.losses, p.draws, p.wins, p.a) : line(p.a, p.wins, p.draws, p.losses, p.b);
}

/** Past matches, newest first, with the filters as a form. */
export function matchesPage(list: readonly MatchListing[], f: MatchFilter): string {
  const rows = list.map(
    (m) => h`<tr>
      <td class="n"><a href="/matches/${m.id}">${m.id}</a></td>
      <td class="when">${when(m.createdAt)}</td>
      <td>${m.puzzleClasses.join(', ') || (m.source ?? '–')}</td>
      <td class="wrap">${m.bots.map((b, i) => h`${i ? ' · ' : ''}<a class="nw" href="/bots/${encodeURIComponent(b)}">${b}</a>`)}</td>
      <td class="n">${scramblesText(m.scramblesDone, m.scrambles, m.status)}</td>
      <td><span class="status ${m.status}">${m.status}</span></td>
      <td class="wrap standing">${m.pairs.map((p, i) => h`${i ? h`<br>` : ''}${standing(p)}`)}</td>
      <td class="dim seed">${m.seed}</td>
    </tr>`,
  );
  const body = h`<h1>Matches</h1>
<form class="filters" method="get" action="/matches">
  <label>bot <input name="bot" value="${f.bot ?? ''}" placeholder="ida-star"></label>
  <label>puzzle <input name="puzzle" value="${f.puzzle ?? ''}" placeholder="sliding 4x4"></label>
  <label>status <select name="status">${['', ...MATCH_STATUSES].map(
    (s) => h`<option value="${s}"${s === (f.status ?? '') ? h` selected` : ''}>${s || 'any'}</option>`,
  )}</select></label>
  <label>limit <input name="limit" type="number" min="1" max="1000" value="${f.limit}"></label>
  <button>Filter</button> <a href="${link('/api/matches', { bot: f.bot, puzzle: f.puzzle, status: f.status, limit: f.limit })}">JSON</a>
</form>
<div class="scroll"><table id="matches">
<thead><tr><th>id</th><th>created</th><th>puzzle</th><th>bots</th><th>scrambles</th><th>status</th><th>standing</th><th>seed</th></tr></thead>
<tbody>${rows}</tbody></table></div>
${list.length === 0 ? h`<p>No matches match these filters.</p>` : ''}`;
  return page({ title: 'Matches', body });
}
