import type { CrossTable, MatchReport, ReportPair, SprtProgress } from '../app/matches/matches.ts';
import { boundOnlyText, eloUnit, fractionText, percentText, ratingText } from '../app/records/report-text.ts';
import { formatScrambleTable } from './format-scrambles.ts';
import { ms, num, renderTable } from './table.ts';

/** Said under the title of a match whose bots ran outside the sandbox. */
export const UNCONFINED_LINE = 'UNCONFINED: the bots the arena started ran outside the sandbox (--no-sandbox, or a machine that could not confine them)';

/** The human-readable match report: a table per scramble, per-bot summary, head-to-head per pair. */
export function formatMatchReport(r: MatchReport, opts: { perScramble: boolean } = { perScramble: true }): string {
  const out: string[] = [];
  const m = r.match;
  out.push(`match ${m.id} · ${m.puzzleClasses.join(', ')} · ${scrambleCount(r)} · seed ${m.seed} · ${m.status}`);
  if (m.unconfined) out.push(UNCONFINED_LINE);
  if (m.cores) out.push(`cores: ${m.cores.text}`);
  if (opts.perScramble) out.push('', ...formatScrambleTable(r));
  else if (r.scrambles.length > 0) {
    out.push('', `(${r.scrambles.length} scrambles: the per-scramble table is left out; arena show ${m.id} --scrambles prints it)`);
  }
  const rows: string[][] = [['bot', 'solved', 'other verdicts', 'mean moves', 'mean gap', 'optimal', 'median wall', 'median cpu', 'total wall']];
  for (const b of m.bots) {
    const s = r.summary.bots[b];
    if (!s) continue;
    const others = Object.entries(s.verdicts)
      .filter(([v, n]) => v !== 'solved' && n > 0)
      .map(([v, n]) => `${v} ${n}`)
      .join(', ');
    rows.push([b, `${s.solved}/${s.results}`, others || '-', num(s.meanMoves), num(s.meanGap), String(s.optimalSolves), ms(s.medianWallMs), ms(s.medianCpuMs), ms(s.totalWallMs)]);
  }
  out.push('', renderTable(rows, new Set([1, 3, 4, 5, 6, 7, 8])));
  // Only scrambles somebody played: a bound on a scramble nobody answered changes no number above.
  const played = new Set(r.results.map((x) => x.scramble));
  const boundOnly = boundOnlyText(r.scrambles.filter((s) => played.has(s.scramble)), played.size);
  if (boundOnly) out.push(boundOnly);
  out.push(...formatBotInfo(r));
  if (r.summary.pairs.length) {
    const faster = m.scoreBy === 'cpu' ? 'less CPU time' : 'clearly faster';
    out.push('', `head-to-head (first bot's point of view; solved beats unsolved, then fewer moves, then ${faster}):`);
    for (const p of r.summary.pairs) out.push(...formatPair(p));
  }
  if (r.summary.crossTable) out.push('', ...formatCrossTable(r.summary.crossTable));
  if (r.summary.sprt) out.push('', formatSprt(r.summary.sprt));
  return out.join('\n') + '\n';
}

/**
 * "20 scrambles", or for a match that stopped early "54 of 200 scrambles played (the SPRT decided)": once
 * finished, and while a decided match still proves the optima of what it played.
 */
function scrambleCount(r: MatchReport): string {
  const m = r.match;
  const decided = Boolean(r.summary.sprt?.decision);
  if ((m.status !== 'finished' && !decided) || m.played === m.scrambles) return `${m.scrambles} scrambles`;
  return `${m.played} of ${m.scrambles} scrambles played${decided ? ' (the SPRT decided)' : ''}`;
}

/**
 * What the bots said about their answers (`info` of the final chunk: the optimality claim, search nodes,
 * compute time), informational and never scored; a claim the exact optimum refutes is counted apart.
 */
function formatBotInfo(r: MatchReport): string[] {
  const rows: string[][] = [['bot', 'claimed optimal', 'refuted', 'mean nodes', 'median compute']];
  for (const b of r.match.bots) {
    const mine = r.results.filter((x) => x.bot === b);
    const claims = mine.filter((x) => x.claimedOptimal === true).length;
    const said = mine.filter((x) => x.claimedOptimal !== undefined).length;
    const refuted = mine.filter((x) => x.claimContradicted).length;
    const nodes = mine.filter((x) => x.nodes !== undefined).map((x) => x.nodes!);
    const compute = mine.filter((x) => x.reportedMs !== undefined).map((x) => x.reportedMs!).sort((p, q) => p - q);
    if (said === 0 && nodes.length === 0 && compute.length === 0) continue;
    rows.push([
      b,
      said ? `${claims}/${said}` : '-',
      said ? String(refuted) : '-',
      nodes.length ? Math.round(nodes.reduce((s, n) => s + n, 0) / nodes.length).toLocaleString('en-US') : '-',
      compute.length ? ms(compute[(compute.length - 1) >> 1]) : '-',
    ]);
  }
  if (rows.length === 1) return [];
  return ['', 'what the bots reported (informational, never scored):', renderTable(rows, new Set([1, 2, 3, 4]))];
}

/**
 * One pair: W-D-L, then score, Elo and normalized Elo with their intervals, LOS and the sign-test p-value,
 * which agree by construction, and the verdict in words; then the time ratio where moves tie.
 */
function formatPair(p: ReportPair): string[] {
  const pct = Math.round(p.level * 100);
  const range = (v: number | null, lo: number | null, hi: number | null, text: (x: number | null) => string): string =>
    v === null ? 'n/a' : `${text(v)} (${pct}% ${text(lo)} .. ${text(hi)})`;
  const score = (x: number | null) => (x === null ? '-' : fractionText(x, 3));
  const elo = (x: number | null) => (x === null ? '-' : ratingText(x, 1, true));
  const head = `  ${p.a} vs ${p.b}: +${p.wins} =${p.draws} -${p.losses}`;
  if (p.games === 0) return [`${head}  (no scramble in common)`];
  const verdict = p.significant
    ? `${p.score! > 0.5 ? p.a : p.b} is stronger (p < ${num(1 - p.level, 2)})`
    : `no significant difference at ${pct}%`;
  const lines = [
    `${head}  score ${range(p.score, p.scoreLow, p.scoreHigh, score)}`,
    `      Elo ${range(p.elo, p.eloLow, p.eloHigh, elo)}  nElo ${range(p.nElo, p.nEloLow, p.nEloHigh, elo)}`,
    `      LOS ${percentText(p.los!, 1, true)}  sign test p = ${p.pValue.toPrecision(3)}: ${verdict}`,
  ];
  const s = p.speed;
  if (s.ratio !== null) {
    const interval = s.low === null ? `too few for a ${pct}% interval` : `${pct}% ${num(s.low, 3)} .. ${num(s.high, 3)}`;
    lines.push(`      time ${p.b}/${p.a} where moves tie: ${num(s.ratio, 3)} (${interval}) over ${s.pairs} scramble${s.pairs === 1 ? '' : 's'}`);
  }
  return lines;
}

/** The SPRT line, as fastchess prints it: LLR, bounds, hypotheses, and the decision in words. */
function formatSprt(s: SprtProgress): string {
  const p = s.params;
  const unit = eloUnit(p.model);
  const design = `[${p.elo0}, ${p.elo1}] ${unit}, alpha ${p.alpha}, beta ${p.beta}`;
  const verdict =
    s.decision === 'H1'
      ? `H1 accepted: ${s.a} is better than ${s.b} by ${p.elo1} ${unit} or more`
      : s.decision === 'H0'
        ? `H0 accepted: ${s.a} is not better than ${s.b} by ${p.elo1} ${unit} (at most ${p.elo0})`
        : 'undecided';
  const wdl = `+${s.wdl.wins} =${s.wdl.draws} -${s.wdl.losses}`;
  return `SPRT ${design}: LLR ${s.llr.toFixed(2)} (${s.lower.toFixed(2)}, ${s.upper.toFixed(2)}) after ${s.scrambles} scramble${s.scrambles === 1 ? '' : 's'} (${wdl}): ${verdict}`;
}

/** The cross-table: one row per bot, best first, its totals and its score against each column bot. */
function formatCrossTable(t: CrossTable): string[] {
  const header = ['rank', 'bot', 'games', '+W', '=D', '-L', 'score', 'rating (95%)', ...t.order.map((_, j) => String(j + 1))];
  const rows: string[][] = [header];
  t.totals.forEach((x, i) => {
    rows.push([
      String(x.rank),
      `${i + 1}. ${x.bot}`,
      String(x.games),
      String(x.wins),
      String(x.draws),
      String(x.losses),
      x.score === null ? '-' : fractionText(x.score, 3),
      `${signed(x.rating)} (${signed(x.ratingLow)} .. ${signed(x.ratingHigh)})`,
      ...t.cells[i].map((c, j) => (j === i ? '-' : c === null || c.score === null ? '' : `${fractionText(c.score, 2)}${c.significant ? '*' : ''}`)),
    ]);
  });
  return [
    "cross-table (the row bot's score against each column bot; * = significant at 95%, exact sign test):",
    renderTable(rows, new Set([0, 2, 3, 4, 5, 6, ...t.order.map((_, j) => 8 + j)])),
  ];
}

function signed(v: number | null): string {
  return v === null ? '-' : ratingText(v, 0, true);
}
