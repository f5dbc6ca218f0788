import type { LadderPace } from '../../app/ladder/ladder-pace.ts';
import type { LadderView, VersionView } from '../../app/ladder/ladder-status.ts';
import type { RatingHistory } from '../../app/records/leaderboard.ts';
import { PageColours } from '../bot-colour.ts';
import { elo, link, num, pct, when } from '../format.ts';
import { h, jsonBlock, type Markup } from '../html.ts';
import { page } from '../layout.ts';

/** How often the ladder page reloads itself: a refresh header, since the page runs no inline script. */
export const LADDER_REFRESH_SECONDS = 5;

/** How fast the ladder plays, or why no pace is shown yet. */
function paceLine(p: LadderPace | undefined, running: boolean): Markup {
  if (!p) return h`<p id="ladder-pace" class="dim">pace: not yet measured (fewer than two games)</p>`;
  // A stopped ladder's window ends at its last game, so the figure is what it reached, not what it does now.
  const span = running ? `in the last ${num(p.minutes, 1)} min` : `in the ${num(p.minutes, 1)} min before its last game`;
  return h`<p id="ladder-pace">pace: <b>${num(p.perMinute, 1)}</b> games per minute <span class="dim">(${p.games} games ${span})</span></p>`;
}

/** The ladder: what it is doing and why, per class the ranking with intervals and bots being placed, recent games. */
export function ladderPage(v: LadderView, before?: number): string {
  const a = v.activity;
  if (!a) return page({ title: 'Ladder', body: h`<h1>Ladder</h1><p>The ladder has not run on this database yet: <code>npx arena ladder</code></p>` });
  const classes = v.classes.map(
    (c) => h`<section class="ladder-class"><h2>${c.puzzleClass}</h2>
<div class="scroll"><table class="ladder-ranking"><thead><tr><th>#</th><th>version</th><th>rating</th><th>95%</th><th>games</th><th>solved</th><th>status</th></tr></thead><tbody>${c.ranking.map(
      (r, i) => h`<tr><td class="n">${i + 1}</td><td><a href="/ladder/bots/${encodeURIComponent(r.bot)}">${r.label}</a></td><td class="n">${elo(r.rating)}</td><td class="n dim">${elo(r.low)} … ${elo(r.high)}</td><td class="n">${r.games}</td><td class="n">${pct(r.solveRate)}</td><td>${r.status}</td></tr>`,
    )}</tbody></table></div>
${c.ranking.length === 0 ? h`<p class="note">No ladder games in this class yet.</p>` : ''}
${c.placing.length ? h`<ul class="placing">${c.placing.map((p) => h`<li>placing <b>${p.label}</b>: ${p.why}</li>`)}</ul>` : ''}</section>`,
  );
  const failed = v.versions.filter((x) => x.current && x.status === 'failed');
  const oldest = v.recent[v.recent.length - 1];
  const body = h`<h1>Ladder <span class="dim">${a.state}</span></h1>
<p id="ladder-activity"><b>${a.doing}</b><br><span class="dim">${a.why}</span></p>
${paceLine(v.pace, a.state === 'running')}
<p class="note">Placement: a bot plays the field in each class it declares until its 95% interval is at most ${a.rule.targetWidth} Elo wide after at least ${a.rule.minGames} games (or ${a.rule.maxGames} games); then the budget (${a.budgetLeft} scrambles left) goes to the pairs whose intervals overlap most. As of ${when(a.at)}${a.state === 'running' ? `; this page reloads every ${LADDER_REFRESH_SECONDS} s` : ''}.</p>
${classes}
${failed.length ? h`<h2>Not played</h2><ul id="ladder-failed">${failed.map((x) => h`<li>${x.bot} v${x.number}: ${x.note ?? 'failed its check'}</li>`)}</ul>` : ''}
<h2>Recent games</h2>
<div class="scroll"><table id="ladder-games"><thead><tr><th>game</th><th>match</th><th>class</th><th>purpose</th><th>versions</th></tr></thead><tbody>${v.recent.map(
    (g) => h`<tr><td class="n">${g.id}</td><td>${g.matchId !== undefined ? h`<a href="/matches/${g.matchId}">match ${g.matchId}</a>` : 'not started'}</td><td>${g.puzzleClass}</td><td>${g.purpose}</td><td>${g.labels.join(' vs ')}</td></tr>`,
  )}</tbody></table></div>
${oldest && oldest.id > 1 ? h`<p><a id="older-games" href="${link('/ladder', { before: oldest.id })}">older games</a></p>` : ''}
${before !== undefined ? h`<p><a href="/ladder">newest games</a></p>` : ''}`;
  return page({ title: 'Ladder', body });
}

/**
 * One bot's versions, newest first: hash, status and why, and its ratings per class (kept for old versions),
 * with a chart of each version's rating after successive ladder games in one class.
 */
export function ladderBotPage(bot: string, versions: readonly VersionView[], history?: RatingHistory): string {
  const chart = history
    ? h`<h2>Rating per version <span class="dim">${history.puzzleClass}</span></h2><div class="chart" id="history-chart"></div>${jsonBlock('history', history)}${new PageColours(Object.keys(history.ratings)).block()}`
    : '';
  const body = h`<h1>${bot} <span class="dim">versions on the ladder</span></h1>
<p><a href="/bots/${encodeURIComponent(bot)}">all of ${bot}'s results</a> · <a href="/ladder">the ladder</a></p>
${chart}
${versions.map(
    (v) => h`<section class="version" id="v${v.number}"><h2>${v.label}${v.current ? h` <span class="chip on">current</span>` : ''} <span class="dim">${v.status}</span></h2>
<p class="note">hash <code>${v.hash.slice(0, 16)}</code> · <code>${v.command}</code>${v.folder ? h` in <code>${v.folder}</code>` : ''} · first seen ${when(v.createdAt)} · ${v.games} ladder game(s)</p>
${v.note ? h`<p>${v.note}</p>` : ''}
${v.ratings.length ? h`<div class="scroll"><table class="version-ratings"><thead><tr><th>class</th><th>rating</th><th>95%</th><th>games</th><th>solved</th></tr></thead><tbody>${v.ratings.map(
      (r) => h`<tr><td>${r.puzzleClass}</td><td class="n">${elo(r.rating)}</td><td class="n dim">${elo(r.low)} … ${elo(r.high)}</td><td class="n">${r.games}</td><td class="n">${pct(r.solveRate)}</td></tr>`,
    )}</tbody></table></div>` : ''}</section>`,
  )}`;
  return page({ title: `${bot} versions`, body, ...(history ? { charts: true, scripts: ['charts.js'] } : {}) });
}
