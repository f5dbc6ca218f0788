import type { MatchListing } from '../../app/matches.ts';
import { link } from '../format.ts';
import { h } from '../html.ts';
import { page } from '../layout.ts';

/** Filters of the match list (as `arena matches`). */
export interface MatchFilter {
  readonly bot?: string;
  readonly puzzle?: string;
  readonly status?: string;
  readonly limit: number;
}

/** Past matches, newest first, with the filters as a form. */
export function matchesPage(list: readonly MatchListing[], f: MatchFilter): string {
  const rows = list.map(
    (m) => h`<tr>
      <td class="n"><a href="/matches/${m.id}">${m.id}</a></td>
      <td>${m.createdAt}</td>
      <td>${m.source ?? '–'}</td>
      <td>${m.bots.map((b, i) => h`${i ? ' · ' : ''}<a href="/bots/${encodeURIComponent(b)}">${b}</a>`)}</td>
      <td class="n">${m.scrambles ?? '–'}</td>
      <td><span class="status ${m.status}">${m.status}</span></td>
      <td class="dim">${m.seed}</td>
    </tr>`,
  );
  const body = h`<h1>Matches</h1>
<form class="filters" method="get" action="/matches">
  <label>bot <input name="bot" value="${f.bot ?? ''}"></label>
  <label>puzzle <input name="puzzle" value="${f.puzzle ?? ''}" placeholder="sliding 4x4"></label>
  <label>status <select name="status">${['', 'running', 'interrupted', 'finished'].map(
    (s) => h`<option value="${s}"${s === (f.status ?? '') ? h` selected` : ''}>${s || 'any'}</option>`,
  )}</select></label>
  <label>limit <input name="limit" type="number" min="1" max="1000" value="${f.limit}"></label>
  <button>Filter</button> <a href="${link('/api/matches', { bot: f.bot, puzzle: f.puzzle, status: f.status, limit: f.limit })}">JSON</a>
</form>
<div class="scroll"><table id="matches">
<thead><tr><th>id</th><th>created</th><th>puzzle</th><th>bots</th><th>scrambles</th><th>status</th><th>seed</th></tr></thead>
<tbody>${rows}</tbody></table></div>
${list.length === 0 ? h`<p>No matches match these filters.</p>` : ''}`;
  return page({ title: 'Matches', body });
}
