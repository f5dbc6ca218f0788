/**
 * The ladder's ratings kept up to date a game at a time. What a finished ladder match adds to the ratings
 * (per class: each version pair's wins, draws and losses, each version's results and solves) is computed
 * once and kept; only games still being played, and games not seen before, are read again. A database of a
 * million results therefore costs one bulk read when first opened, and a few milliseconds per new game
 * after that, instead of a re-read of every result on every write. Results are compared as the leaderboard
 * compares them (compareResults, no per-match margin); `unsupported` results count nowhere, as there.
 * Pure: which games to read and when is src/app/ladder/ladder-standings.ts's job.
 */
import { VERDICTS } from '../core/verdict.ts';
import type { SummaryColumns } from '../core/summary-columns.ts';
import { fitBradleyTerry } from './bradley-terry.ts';
import { compareResults, type Contender } from './outcome.ts';
import type { PairTally } from './match-stats.ts';
import { PROVISIONAL_GAMES, type LeaderboardEntry } from './leaderboard.ts';

/** One version's standing in one class. */
export interface VersionRating extends Omit<LeaderboardEntry, 'bot'> {
  readonly versionId: number;
}

/** Per class, each version's rating (versions with no ladder result in a class are absent). */
export type LadderBoards = ReadonlyMap<string, ReadonlyMap<number, VersionRating>>;

/** What a contribution needs of a ladder game (the store's LadderGame has it): which bot played as which version. */
export interface GameEntries {
  readonly entries: readonly { readonly bot: string; readonly versionId: number }[];
}

/** What one match adds, per class. */
export interface Contribution {
  readonly byClass: Map<string, ClassTally>;
}

interface ClassTally {
  /** "a,b" with a < b (version ids) → [wins of a, draws, losses of a]. */
  readonly pairs: Map<string, [number, number, number]>;
  /** version id → [results, solved]. */
  readonly versions: Map<number, [number, number]>;
}

/** One result as a contribution reads it. */
export interface TallyRow extends Contender {
  readonly scrambleId: number;
  readonly bot: string;
  readonly puzzleClass: string;
}

/** The contribution of one ladder game from its results (any order). */
export function contributionOf(game: GameEntries, rows: readonly TallyRow[]): Contribution {
  const version = new Map(game.entries.map((e) => [e.bot, e.versionId]));
  const byScramble = new Map<number, TallyRow[]>();
  for (const r of rows) {
    if (r.verdict === 'unsupported' || !version.has(r.bot)) continue;
    const list = byScramble.get(r.scrambleId);
    if (list) list.push(r);
    else byScramble.set(r.scrambleId, [r]);
  }
  const byClass = new Map<string, ClassTally>();
  for (const list of byScramble.values()) {
    const cls = list[0]!.puzzleClass;
    let t = byClass.get(cls);
    if (!t) byClass.set(cls, (t = { pairs: new Map(), versions: new Map() }));
    for (const r of list) {
      const v = version.get(r.bot)!;
      const s = t.versions.get(v) ?? [0, 0];
      s[0]++;
      if (r.verdict === 'solved') s[1]++;
      t.versions.set(v, s);
    }
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        let [x, y] = [list[i]!, list[j]!];
        if (version.get(x.bot)! > version.get(y.bot)!) [x, y] = [y, x];
        const key = `${version.get(x.bot)},${version.get(y.bot)}`;
        const o = compareResults(x, y);
        const w = t.pairs.get(key) ?? [0, 0, 0];
        w[o === 1 ? 0 : o === 0 ? 1 : 2]++;
        t.pairs.set(key, w);
      }
    }
  }
  return { byClass };
}

/** The rows of each wanted match out of result columns (one bulk read serves many games). */
export function rowsByMatch(c: SummaryColumns, wanted: ReadonlySet<number>): Map<number, TallyRow[]> {
  const out = new Map<number, TallyRow[]>();
  for (let i = 0; i < c.length; i++) {
    const m = c.matchId[i]!;
    if (!wanted.has(m)) continue;
    let list = out.get(m);
    if (!list) out.set(m, (list = []));
    list.push({ scrambleId: c.scrambleId[i]!, bot: c.bots[c.bot[i]!]!, puzzleClass: c.classes[c.puzzleClass[i]!]!, verdict: VERDICTS[c.verdict[i]!]!, moveCount: c.moveCount[i]!, wallMs: c.wallMs[i]! });
  }
  return out;
}

/** Contributions summed: per class, pair tallies and version counts. */
export type Totals = Map<string, { pairs: Map<string, [number, number, number]>; versions: Map<number, [number, number]> }>;

/** Adds one contribution into `into` (in place). */
export function addContribution(into: Totals, c: Contribution): void {
  for (const [cls, t] of c.byClass) {
    let s = into.get(cls);
    if (!s) into.set(cls, (s = { pairs: new Map(), versions: new Map() }));
    for (const [k, w] of t.pairs) {
      const acc = s.pairs.get(k) ?? [0, 0, 0];
      s.pairs.set(k, [acc[0] + w[0], acc[1] + w[1], acc[2] + w[2]]);
    }
    for (const [v, n] of t.versions) {
      const acc = s.versions.get(v) ?? [0, 0];
      s.versions.set(v, [acc[0] + n[0], acc[1] + n[1]]);
    }
  }
}

/** A copy of `t` that can be added to without changing `t`. */
export function cloneTotals(t: Totals): Totals {
  return new Map([...t].map(([cls, s]) => [cls, { pairs: new Map([...s.pairs].map(([k, w]) => [k, [...w] as [number, number, number]])), versions: new Map([...s.versions].map(([v, n]) => [v, [...n] as [number, number]])) }]));
}

/** The Bradley–Terry fit of each class's summed tallies. */
export function boardsOfTotals(sum: Totals): LadderBoards {
  const boards = new Map<string, Map<number, VersionRating>>();
  for (const [cls, s] of [...sum].sort((a, b) => a[0].localeCompare(b[0]))) {
    const tallies: PairTally[] = [...s.pairs].map(([k, w]) => {
      const [a, b] = k.split(',');
      return { a: a!, b: b!, wins: w[0], draws: w[1], losses: w[2] };
    });
    const players = [...s.versions.keys()].filter((v) => s.versions.get(v)![0] > 0).map(String);
    const fit = fitBradleyTerry(tallies, { players });
    const board = new Map<number, VersionRating>();
    for (const r of fit.ratings) {
      const id = Number(r.name);
      const [results, solved] = s.versions.get(id) ?? [0, 0];
      board.set(id, { versionId: id, rating: r.rating, low: r.low, high: r.high, games: r.games, results, declined: 0, solveRate: results ? solved / results : 0, meanMoves: null, meanGap: null, medianWallMs: null, provisional: r.games < PROVISIONAL_GAMES });
    }
    boards.set(cls, board);
  }
  return boards;
}
