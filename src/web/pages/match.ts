import type { DistributedView } from '../../app/matches/distributed.ts';
import type { MatchReport } from '../../app/matches/matches.ts';
import { progressOf, type SettingRow, type SprtTrace } from '../../app/records/match-view.ts';
import type { BotStderrView } from '../../app/records/bot-stderr.ts';
import { stderrPanels } from './stderr-panel.ts';
import { PageColours } from '../bot-colour.ts';
import { workersSection } from './distributed.ts';

type ReportResult = MatchReport['results'][number];
import { eloUnit } from '../../app/records/report-text.ts';
import { num, ms, pct, rating } from '../format.ts';
import { h, jsonBlock, type Markup } from '../html.ts';
import { page } from '../layout.ts';

/** The per-scramble rows, one per scramble, one cell per bot; also the live page's refreshed fragment. */
export function scrambleRows(report: MatchReport): Markup {
  const bots = report.match.bots;
  const byScramble = new Map<number, ReportResult[]>();
  for (const r of report.results) {
    const list = byScramble.get(r.scramble) ?? [];
    list.push(r);
    byScramble.set(r.scramble, list);
  }
  const footnotes: Markup[] = [];
  const rows = [...byScramble.entries()].map(([index, results]) => {
    const solved = results.filter((r) => r.verdict === 'solved');
    const fewest = solved.length ? Math.min(...solved.map((r) => r.moves)) : undefined;
    const first = results[0];
    const best = first.optimal !== undefined ? h`=${first.optimal}` : h`≥${first.lowerBound}`;
    const cells = bots.map((b) => {
      const r = results.find((x) => x.bot === b);
      if (!r) return h`<td class="dim">pending</td>`;
      const lead = r.verdict === 'solved' && r.moves === fewest;
      let mark: Markup | string = '';
      if (r.verdict !== 'solved' && r.reason) {
        footnotes.push(h`<li id="fn-${index}-${bots.indexOf(b)}"><b>${index}</b> ${b}: ${r.verdict}${r.index !== undefined ? h` at move ${r.index}` : ''} — ${r.reason}</li>`);
        mark = h`<sup><a href="#fn-${index}-${bots.indexOf(b)}">${footnotes.length}</a></sup>`;
      }
      return h`<td class="${lead ? 'lead' : ''}"><a href="/replay/${report.match.id}/${index}/${encodeURIComponent(b)}">${r.verdict === 'solved' ? r.moves : r.verdict}</a>${mark}<span class="dim"> ${ms(r.timeMs)}</span></td>`;
    });
    const replayBoth = bots.length >= 2 ? h`<a href="/replay/${report.match.id}/${index}/${encodeURIComponent(bots[0])}?vs=${encodeURIComponent(bots[1])}">side by side</a>` : '';
    return h`<tr><td class="n">${index}</td><td class="n">${best}</td>${cells}<td>${replayBoth}</td></tr>`;
  });
  // No footnote row without footnotes: an empty one reads as a missing scramble.
  return h`${rows}${footnotes.length ? h`<tr class="footnotes"><td colspan="${bots.length + 3}"><ol>${footnotes}</ol></td></tr>` : ''}`;
}

/** Head-to-head lines of every pair. */
function pairsTable(report: MatchReport): Markup {
  return h`<div class="scroll"><table id="pairs"><thead><tr><th>pair</th><th>W-D-L</th><th>score</th><th>Elo (95%)</th><th>nElo (95%)</th><th>LOS</th><th>p</th><th class="wrap">time ratio where moves tie</th></tr></thead><tbody>${report.summary.pairs.map(
    (p) => h`<tr><td class="wrap"><span class="nw">${p.a}</span> vs <span class="nw">${p.b}</span></td><td class="n">${p.wins}-${p.draws}-${p.losses}</td><td class="n wrap">${pct(p.score)} <span class="dim nw">${pct(p.scoreLow)}…${pct(p.scoreHigh)}</span></td>
      <td class="n wrap">${rating(p.elo)} <span class="dim nw">(${rating(p.eloLow)} … ${rating(p.eloHigh)})</span></td><td class="n wrap">${rating(p.nElo)} <span class="dim nw">(${rating(p.nEloLow)} … ${rating(p.nEloHigh)})</span></td><td class="n">${pct(p.los, 1, true)}</td>
      <td class="n">${num(p.pValue, 3)}${p.significant ? ' *' : ''}</td>
      <td class="n wrap">${p.speed.ratio === null ? '–' : h`${num(p.speed.ratio, 2)}${p.speed.low !== null ? h` <span class="dim nw">(${num(p.speed.low, 2)} … ${num(p.speed.high, 2)})</span>` : ''} <span class="dim nw">n=${p.speed.pairs}</span>`}</td></tr>`,
  )}</tbody></table></div>`;
}

function crossTable(report: MatchReport): Markup | string {
  const x = report.summary.crossTable;
  if (!x) return '';
  return h`<h2>Cross-table</h2><div class="scroll"><table id="cross"><thead><tr><th>#</th><th>bot</th>${x.order.map((b) => h`<th>${b}</th>`)}<th>points</th><th>rating</th></tr></thead><tbody>${x.order.map(
    (b, i) => h`<tr><td class="n">${x.totals[i].rank}</td><td>${b}</td>${x.cells[i].map((c) => h`<td class="n">${c ? `${c.wins}-${c.draws}-${c.losses}` : '–'}</td>`)}<td class="n">${x.totals[i].points}/${x.totals[i].games}</td><td class="n">${num(x.totals[i].rating)}</td></tr>`,
  )}</tbody></table></div>`;
}

const HYPOTHESES: Record<'H0' | 'H1', string> = { H0: 'H0 accepted', H1: 'H1 accepted' };

/** The SPRT: its hypotheses, where the LLR stands between the bounds, the decision, and the LLR trace. */
function sprtSection(matchId: number, t: SprtTrace): Markup {
  const p = t.params;
  // The unit of the bounds as the CLI prints it: nElo for the normalized model, Elo for the logistic one.
  const unit = eloUnit(p.model);
  const verdict = t.decision
    ? h`<b>${HYPOTHESES[t.decision]}</b> after ${t.scrambles} scrambles: ${t.decision === 'H1' ? h`${t.a} is better than ${t.b} by ${p.elo1} ${unit} or more` : h`${t.a} is not better than ${t.b} by ${p.elo1} ${unit} (at most ${p.elo0})`}`
    : h`undecided after ${t.scrambles} scrambles`;
  return h`<h2>SPRT</h2>
<p id="sprt-summary">${t.a} vs ${t.b}: [${p.elo0}, ${p.elo1}] ${unit} (H0 ${unit} ≤ ${p.elo0}, H1 ${unit} ≥ ${p.elo1}), α ${p.alpha}, β ${p.beta} ·
LLR <b>${num(t.llr, 2)}</b> between A = ${num(t.lower, 2)} and B = ${num(t.upper, 2)} · W-D-L ${t.wdl.wins}-${t.wdl.draws}-${t.wdl.losses} · ${verdict}</p>
<figure><figcaption>LLR after each counted scramble; crossing A accepts H0, crossing B accepts H1 · <a href="/api/matches/${matchId}/sprt">JSON</a></figcaption><div class="chart" id="sprt-chart">${t.trace.length ? '' : 'no scramble counted yet'}</div></figure>
${jsonBlock('sprt', t)}`;
}

/**
 * The configuration a match was started with: each setting as its flag takes it (read off the settings
 * schema, so a new setting appears here by itself; an older match's missing one says what its absence
 * means), or the stored JSON as it is when it does not validate.
 */
export function configurationSection(config: unknown, settings?: readonly SettingRow[]): Markup {
  if (!settings) return h`<details><summary>Configuration</summary><pre>${JSON.stringify(config, null, 2)}</pre></details>`;
  const rows = settings.map((r) => h`<tr${r.stored ? '' : h` class="absent"`}><th><code>${r.flag}</code></th><td>${r.value}</td></tr>`);
  return h`<details><summary>Configuration</summary><div class="scroll"><table id="configuration"><tbody>${rows}</tbody></table></div></details>`;
}

/**
 * A match: config and seed, progress, per-bot summary, pairs, cross-table, per-scramble table and plots, and
 * the bots' stderr that the viewer may read (`stderr`).
 */
export function matchPage(
  report: MatchReport,
  config: unknown,
  distributed?: DistributedView,
  sprt?: SprtTrace,
  settings?: readonly SettingRow[],
  stderr: readonly BotStderrView[] = [],
): string {
  const m = report.match;
  const { done, total } = progressOf(m.status, report.results.length, m.scrambles * m.bots.length);
  const early = m.status === 'finished' && m.played < m.scrambles ? h` · ${sprt?.decision ? 'the SPRT decided' : 'finished'} after ${m.played} of ${m.scrambles} scrambles` : '';
  const colours = new PageColours(m.bots);
  const summary = m.bots.map((b) => {
    const s = report.summary.bots[b];
    return h`<tr><td>${colours.swatch(b)} <a href="/bots/${encodeURIComponent(b)}">${b}</a></td><td class="n">${s ? `${s.solved}/${s.results}` : '–'}</td><td class="n">${num(s?.meanMoves, 1)}</td><td class="n">${num(s?.meanGap, 1)}</td><td class="n">${s?.optimalSolves ?? '–'}</td><td class="n">${ms(s?.medianWallMs)}</td><td class="n">${ms(s?.medianCpuMs)}</td></tr>`;
  });
  const body = h`<h1>Match ${m.id} <span class="status ${m.status}" id="status">${m.status}</span></h1>
<p class="meta">${m.puzzleClasses.join(', ')} · seed <code>${m.seed}</code> · generator ${m.generatorVersion} · <a href="/api/matches/${m.id}">JSON</a></p>
${m.unconfined ? h`<p class="warning" id="unconfined"><b>Unconfined:</b> the bots the arena started ran outside the sandbox (--no-sandbox, or a machine that could not confine them).</p>` : ''}
${m.cores ? h`<p class="meta" id="cores">cores: ${m.cores.text}</p>` : ''}
<p><progress id="progress" max="${total}" value="${done}"></progress> <span id="progress-text">${done} / ${total} results</span>${early}</p>
${distributed ? workersSection(m.id, distributed) : ''}
${configurationSection(config, settings)}
<h2>Bots</h2>
<div class="scroll"><table id="bots"><thead><tr><th>bot</th><th>solved</th><th>mean moves</th><th>mean gap</th><th>optimal</th><th>median time</th><th>median CPU</th></tr></thead><tbody>${summary}</tbody></table></div>
${report.summary.pairs.length ? h`<h2>Head to head</h2>${pairsTable(report)}` : ''}
${crossTable(report)}
${sprt ? sprtSection(m.id, sprt) : ''}
<h2>Plots</h2>
<div class="plots"><figure><figcaption>Moves per scramble against the optimum or bound</figcaption><div class="chart" id="moves-chart"></div></figure>
<figure><figcaption>Time per answer, by bot (log scale)</figcaption><div class="chart" id="time-chart"></div></figure></div>
<h2>Scrambles</h2>
<p class="note">Best: <code>=n</code> exact optimum, <code>≥n</code> lower bound. Bold: fewest moves among the solvers. Each cell links to its replay.</p>
<div class="scroll"><table id="scrambles" data-match="${m.id}" data-live="${m.status === 'running' ? '1' : '0'}"><thead><tr><th>#</th><th>best</th>${m.bots.map((b) => h`<th>${colours.swatch(b)} ${b}</th>`)}<th>replay</th></tr></thead>
<tbody id="scramble-rows">${scrambleRows(report)}</tbody></table></div>
${stderrPanels(stderr)}
${jsonBlock('report', report)}
${colours.block()}`;
  return page({ title: `Match ${m.id}`, body, charts: true, scripts: ['charts.js', 'live.js'] });
}
