/**
 * What the ladder does next, decided from what the database says (pure: the same state, the same decision,
 * so a restarted ladder carries on where it stopped). In order:
 *  1. a new version is checked (bot check rules, confined) before it plays anything;
 *  2. the oldest version being placed plays its next game: in each class it declares, against the opponent
 *     whose rating is closest to its own (fewer games together breaks ties, so it meets the whole field),
 *     until its interval is narrower than the target (after a minimum of games) or it has played the most
 *     placement games a class allows;
 *  3. otherwise, while the upkeep budget lasts, the pair of placed versions whose rating intervals overlap
 *     most plays; pairs whose intervals are already apart never do;
 *  4. otherwise it waits, and says why.
 */
import type { VersionStatus } from '../../store/ladder-types.ts';
import type { LadderBoards, VersionRating } from './ladder-ratings.ts';

/** A current version of a bot on the ladder's field. */
export interface FieldVersion {
  readonly id: number;
  readonly bot: string;
  /** "<bot> v<number>", for people. */
  readonly label: string;
  readonly status: VersionStatus;
  readonly classes: readonly string[];
}

/** How placement decides. */
export interface PlacementRule {
  /** Placed in a class once its interval (high − low, Elo) is at most this… */
  readonly targetWidth: number;
  /** …after at least this many head-to-head games there… */
  readonly minGames: number;
  /** …or once it has played this many there, however wide its interval still is. */
  readonly maxGames: number;
}

/** What the ladder knows when it decides. */
export interface ScheduleInput {
  readonly classes: readonly string[];
  readonly field: readonly FieldVersion[];
  readonly boards: LadderBoards;
  /** Ladder games the two versions played together in the class. */
  together(puzzleClass: string, a: number, b: number): number;
  readonly rule: PlacementRule;
  /** Upkeep scrambles left to spend. */
  readonly budgetLeft: number;
}

/** The next thing to do, and why, in words `arena ladder status` prints. */
export type Decision =
  | { readonly kind: 'check'; readonly version: FieldVersion; readonly why: string }
  | { readonly kind: 'play'; readonly purpose: 'placement' | 'upkeep'; readonly puzzleClass: string; readonly a: FieldVersion; readonly b: FieldVersion; readonly subject?: FieldVersion; readonly why: string }
  | { readonly kind: 'placed'; readonly version: FieldVersion; readonly why: string }
  | { readonly kind: 'idle'; readonly why: string };

/** Whole Elo points, signed where it matters. */
const elo = (x: number): string => (Number.isFinite(x) ? String(Math.round(x)) : x > 0 ? '∞' : '-∞');

/** Where a version stands in one class against the placement rule. */
export function classProgress(r: VersionRating | undefined, rule: PlacementRule): { done: boolean; games: number; width: number; why: string } {
  const games = r?.games ?? 0;
  const width = r ? r.high - r.low : Infinity;
  if (games >= rule.maxGames) return { done: true, games, width, why: `${games} games, the most a placement plays (interval ${elo(width)} wide)` };
  if (games >= rule.minGames && width <= rule.targetWidth) return { done: true, games, width, why: `interval ${elo(width)} wide after ${games} games, within the target ${rule.targetWidth}` };
  const need = games < rule.minGames ? `${games} of at least ${rule.minGames} games` : `interval ${elo(width)} wide, target ${rule.targetWidth}`;
  return { done: false, games, width, why: need };
}

/** The next decision (see the file comment for the order). */
export function decide(s: ScheduleInput): Decision {
  const byAge = [...s.field].sort((a, b) => a.id - b.id);
  const fresh = byAge.find((v) => v.status === 'new' || v.status === 'checking');
  if (fresh) return { kind: 'check', version: fresh, why: `${fresh.label} is new: it is checked (bot check, confined) before it plays` };
  for (const v of byAge.filter((x) => x.status === 'placing')) {
    const next = placementGame(s, v);
    if (next) return next;
    const summary = v.classes.map((c) => `${c}: ${describe(s.boards.get(c)?.get(v.id))}`).join('; ');
    return { kind: 'placed', version: v, why: `${v.label} is placed (${summary || 'it plays none of the ladder classes'})` };
  }
  return upkeep(s);
}

function describe(r: VersionRating | undefined): string {
  return r ? `${elo(r.rating)} [${elo(r.low)}, ${elo(r.high)}] after ${r.games} games` : 'no opponent';
}

/** The next placement game of `v`, or undefined when it is placed in every class it plays. */
function placementGame(s: ScheduleInput, v: FieldVersion): Decision | undefined {
  for (const cls of s.classes) {
    if (!v.classes.includes(cls)) continue;
    const board = s.boards.get(cls);
    const mine = board?.get(v.id);
    const progress = classProgress(mine, s.rule);
    if (progress.done) continue;
    const rivals = s.field.filter((o) => o.id !== v.id && o.classes.includes(cls) && (o.status === 'placed' || o.status === 'placing'));
    if (rivals.length === 0) continue; // nobody to play there yet: nothing to place against
    const own = mine?.rating ?? 0;
    const cost = (o: FieldVersion) => Math.abs((board?.get(o.id)?.rating ?? 0) - own) + 100 * s.together(cls, v.id, o.id);
    const best = [...rivals].sort((a, b) => cost(a) - cost(b) || a.label.localeCompare(b.label))[0]!;
    const met = s.together(cls, v.id, best.id);
    const why = `placing ${v.label} on ${cls} (${progress.why}): against ${best.label}, the closest rating (${elo(board?.get(best.id)?.rating ?? 0)} to ${elo(own)}) with ${met} game(s) together so far`;
    return { kind: 'play', purpose: 'placement', puzzleClass: cls, a: v, b: best, subject: v, why };
  }
  return undefined;
}

/** The upkeep game of the pair whose intervals overlap most, or why there is none. */
function upkeep(s: ScheduleInput): Decision {
  const placed = s.field.filter((v) => v.status === 'placed');
  if (placed.length < 2) return { kind: 'idle', why: 'waiting for bots: fewer than two are placed' };
  let best: { cls: string; a: FieldVersion; b: FieldVersion; overlap: number; met: number } | undefined;
  let pairs = 0;
  for (const cls of s.classes) {
    const board = s.boards.get(cls);
    const here = placed.filter((v) => v.classes.includes(cls) && board?.has(v.id)).sort((a, b) => a.label.localeCompare(b.label));
    for (let i = 0; i < here.length; i++) {
      for (let j = i + 1; j < here.length; j++) {
        pairs++;
        const ra = board!.get(here[i]!.id)!;
        const rb = board!.get(here[j]!.id)!;
        const overlap = Math.min(ra.high, rb.high) - Math.max(ra.low, rb.low);
        if (!(overlap > 0)) continue;
        const met = s.together(cls, here[i]!.id, here[j]!.id);
        if (!best || overlap > best.overlap || (overlap === best.overlap && met < best.met)) best = { cls, a: here[i]!, b: here[j]!, overlap, met };
      }
    }
  }
  if (!best) return { kind: 'idle', why: pairs ? `all ${pairs} pairs of placed bots are separated: their intervals do not overlap` : 'no two placed bots share a class' };
  if (s.budgetLeft <= 0) return { kind: 'idle', why: `the upkeep budget is spent (most uncertain pair: ${best.a.label} and ${best.b.label} on ${best.cls}, overlapping by ${elo(best.overlap)}); waiting for new bots` };
  const why = `upkeep: ${best.a.label} and ${best.b.label} on ${best.cls} overlap by ${elo(best.overlap)} Elo, the most of any pair; ${s.budgetLeft} upkeep scramble(s) left`;
  return { kind: 'play', purpose: 'upkeep', puzzleClass: best.cls, a: best.a, b: best.b, why };
}
