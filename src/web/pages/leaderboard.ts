import type { ClassBoard, RatingHistory } from '../../app/records/leaderboard.ts';
import { PageColours } from '../bot-colour.ts';
import { num, ms, pct, link } from '../format.ts';
import { h, jsonBlock } from '../html.ts';
import { page } from '../layout.ts';

/** The leaderboard of one class (or the first), a class picker and the rating history chart. */
export function leaderboardPage(boards: readonly ClassBoard[], chosen: string | undefined, history: RatingHistory | undefined): string {
  const board = boards.find((b) => b.puzzleClass === chosen) ?? boards[0];
  const picker = h`<nav class="classes" aria-label="puzzle classes">${boards.map(
    (b) => h`<a href="${link('/', { class: b.puzzleClass })}" class="${b === board ? 'chip on' : 'chip'}">${b.puzzleClass}</a>`,
  )}</nav>`;
  if (!board) {
    return page({ title: 'Leaderboard', body: h`<h1>Leaderboard</h1><p>No results yet. Play a match: <code>npx arena match ida-star constructive --puzzle sliding --size 4</code></p>` });
  }
  const colours = new PageColours([...board.entries.map((e) => e.bot), ...Object.keys(history?.ratings ?? {})]);
  const rows = board.entries.map(
    (e, i) => h`<tr>
      <td class="n">${i + 1}</td>
      <td><span>${colours.swatch(e.bot)} <a href="/bots/${encodeURIComponent(e.bot)}">${e.bot}</a></span>${e.provisional ? h` <span class="dim" title="too few head-to-head games to rank it among the established bots">provisional</span>` : ''}</td>
      <td class="n">${num(e.rating)}</td><td class="n dim">${num(e.low)} … ${num(e.high)}</td>
      <td class="n">${e.games}</td><td class="n">${e.results}</td>
      <td class="n">${pct(e.solveRate)}</td><td class="n">${num(e.meanMoves, 1)}</td>
      <td class="n">${num(e.meanGap, 1)}</td><td class="n">${ms(e.medianWallMs)}</td>
    </tr>`,
  );
  const body = h`<h1>Leaderboard <span class="dim">${board.puzzleClass}</span></h1>
${picker}
<div class="scroll"><table id="leaderboard">
<thead><tr><th>#</th><th>bot</th><th>rating</th><th>95%</th><th>games</th><th>results</th><th>solved</th><th>mean moves</th><th>mean gap</th><th>median time</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<p class="note">Bradley–Terry ratings (logistic Elo scale, mean 0 in the class) from every head-to-head scramble; a scramble a bot declined does not count. Gap: moves over the exact optimum, or over the lower bound where no optimum is known. A provisional bot has played too few head-to-head games for its rating to mean much; it is listed after every established bot.</p>
<h2>Rating history</h2>
<div class="chart" id="history-chart"></div>
${jsonBlock('history', history ?? null)}
${colours.block()}`;
  return page({ title: `Leaderboard ${board.puzzleClass}`, body, charts: true, scripts: ['charts.js'] });
}
