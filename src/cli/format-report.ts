import type { MatchReport } from '../referee/match-report.ts';
import { ms, num, renderTable } from './table.ts';

/** The human-readable match report: a table per scramble, per-bot summary, head-to-head per pair. */
export function formatMatchReport(r: MatchReport, opts: { perScramble: boolean } = { perScramble: true }): string {
  const out: string[] = [];
  const m = r.match;
  out.push(`match ${m.id} · ${m.puzzleClasses.join(', ')} · ${m.scrambles} scrambles · seed ${m.seed} · ${m.status}`);
  if (opts.perScramble) {
    const header = ['#', 'best', ...m.bots];
    const rows: string[][] = [header];
    const byScramble = new Map<number, Map<string, (typeof r.results)[number]>>();
    for (const x of r.results) {
      if (!byScramble.has(x.scramble)) byScramble.set(x.scramble, new Map());
      byScramble.get(x.scramble)!.set(x.bot, x);
    }
    for (const [idx, per] of [...byScramble.entries()].sort((a, b) => a[0] - b[0])) {
      const any = per.values().next().value!;
      const best = any.optimal !== undefined ? `=${any.optimal}` : `≥${any.lowerBound}`;
      rows.push([
        String(idx + 1),
        best,
        ...m.bots.map((b) => {
          const x = per.get(b);
          if (!x) return '(not played)';
          return x.verdict === 'solved' ? `${x.moves} in ${ms(x.timeMs)}` : `${x.verdict}${x.index !== undefined ? ` @${x.index}` : ''}`;
        }),
      ]);
    }
    out.push('', renderTable(rows, new Set([0, 1])));
  }
  const rows: string[][] = [['bot', 'solved', 'other verdicts', 'mean moves', 'mean gap', 'optimal', 'median', 'total']];
  for (const b of m.bots) {
    const s = r.summary.bots[b];
    if (!s) continue;
    const others = Object.entries(s.verdicts)
      .filter(([v, n]) => v !== 'solved' && n > 0)
      .map(([v, n]) => `${v} ${n}`)
      .join(', ');
    rows.push([b, `${s.solved}/${s.results}`, others || '-', num(s.meanMoves), num(s.meanGap), String(s.optimalSolves), ms(s.medianWallMs), ms(s.totalWallMs)]);
  }
  out.push('', renderTable(rows, new Set([1, 3, 4, 5, 6, 7])));
  if (r.summary.pairs.length) {
    out.push('', 'head-to-head (first bot\'s point of view; solved beats unsolved, then fewer moves, then clearly faster):');
    for (const p of r.summary.pairs) {
      // Print the interval ends, not "± x": at a score of 0 or 1 one end is infinite.
      const elo = p.elo === null ? 'n/a' : `${num(p.elo)} (95% ${num(p.eloLow)} .. ${num(p.eloHigh)})`;
      out.push(
        `  ${p.a} vs ${p.b}: +${p.wins} =${p.draws} -${p.losses}  score ${num(p.score, 3)}  Elo ${elo}  sign-test p = ${p.pValue.toPrecision(3)}`,
      );
    }
  }
  return out.join('\n') + '\n';
}
