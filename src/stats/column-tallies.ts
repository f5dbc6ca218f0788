/**
 * Head-to-head counting on {@link SummaryColumns}: the same W-D-L that `pairTallies` finds from result
 * objects, on typed arrays (no Map per scramble, no string keys), for ratings over 100,000 results. Pure.
 */
import { VERDICTS, type Verdict } from '../core/verdict.ts';
import type { SummaryColumns } from '../core/summary-columns.ts';
import type { PairTally } from './match-stats.ts';
import { compareResults, type Contender, type TieBreak } from './outcome.ts';

/** Bots ordered as `pairTallies` orders them (UTF-16 code units): `rank[botIndex]` and the names by rank. */
export interface BotOrder {
  readonly rank: Int32Array;
  readonly names: readonly string[];
}

/** The code-unit order of the column's bot names (the order pairs and players are listed in). */
export function botOrder(c: SummaryColumns): BotOrder {
  const names = [...c.bots].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const at = new Map(names.map((n, i) => [n, i]));
  return { rank: Int32Array.from(c.bots, (b) => at.get(b)!), names };
}

/**
 * W-D-L counts of every bot pair over `rows` (indices into `c` in which each scramble's results are adjacent,
 * as {@link SummaryColumns} keeps them), added into `counts`: for ranks a < b, wins of a at
 * [3·(a·n + b)], draws at +1, losses at +2, n the number of bots. The columns hold wall times only, so ties
 * on moves are broken by wall time, as the leaderboard rates them.
 */
export function addPairCounts(c: SummaryColumns, rows: Int32Array, order: BotOrder, counts: Int32Array, tie: TieBreak = {}): void {
  const n = order.names.length;
  const sid = c.scrambleId;
  // Two reusable contenders: compareResults itself decides, so the rule lives in one place.
  const x: { verdict: Verdict; moveCount: number; wallMs: number } = { verdict: 'solved', moveCount: 0, wallMs: 0 };
  const y: typeof x = { verdict: 'solved', moveCount: 0, wallMs: 0 };
  let start = 0;
  while (start < rows.length) {
    let end = start + 1;
    while (end < rows.length && sid[rows[end]] === sid[rows[start]]) end++;
    for (let i = start; i < end; i++) {
      for (let j = i + 1; j < end; j++) {
        let p = rows[i];
        let q = rows[j];
        if (order.rank[c.bot[p]] > order.rank[c.bot[q]]) [p, q] = [q, p];
        const a = order.rank[c.bot[p]];
        const b = order.rank[c.bot[q]];
        if (a === b) continue;
        load(x, c, p);
        load(y, c, q);
        const o = compareResults(x as Contender, y as Contender, tie);
        counts[3 * (a * n + b) + (o === 1 ? 0 : o === 0 ? 1 : 2)]++;
      }
    }
    start = end;
  }
}

function load(into: { verdict: Verdict; moveCount: number; wallMs: number }, c: SummaryColumns, row: number): void {
  into.verdict = VERDICTS[c.verdict[row]];
  into.moveCount = c.moveCount[row];
  into.wallMs = c.wallMs[row];
}

/** The pairs that met, in (a, b) order, as the Bradley–Terry fit takes them. */
export function talliesOf(counts: Int32Array, order: BotOrder): PairTally[] {
  const n = order.names.length;
  const out: PairTally[] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const k = 3 * (a * n + b);
      if (counts[k] + counts[k + 1] + counts[k + 2] === 0) continue;
      out.push({ a: order.names[a], b: order.names[b], wins: counts[k], draws: counts[k + 1], losses: counts[k + 2] });
    }
  }
  return out;
}

/** Row indices grouped by puzzle class: `rows[cls]` in column order (so a scramble's results stay adjacent). */
export function rowsByClass(c: SummaryColumns): Int32Array[] {
  const sizes = new Int32Array(c.classes.length);
  for (let i = 0; i < c.length; i++) sizes[c.puzzleClass[i]]++;
  const out = Array.from(sizes, (s) => new Int32Array(s));
  const fill = new Int32Array(c.classes.length);
  for (let i = 0; i < c.length; i++) {
    const k = c.puzzleClass[i];
    out[k][fill[k]++] = i;
  }
  return out;
}

/** `rows` stably ordered by match id (a counting sort: match ids are small), each scramble's results still adjacent. */
export function byMatch(c: SummaryColumns, rows: Int32Array): Int32Array {
  let max = 0;
  for (const i of rows) max = Math.max(max, c.matchId[i]);
  const start = new Int32Array(max + 2);
  for (const i of rows) start[c.matchId[i] + 1]++;
  for (let m = 1; m < start.length; m++) start[m] += start[m - 1];
  const out = new Int32Array(rows.length);
  for (const i of rows) out[start[c.matchId[i]]++] = i;
  return out;
}
