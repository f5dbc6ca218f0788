import type { Rng } from '../../core/rng.ts';
import type { Bound, HanoiState, Result, ScrambleSpec, WireMoves } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { describeHanoi } from './describe.ts';
import { hanoiDistance } from './distance.ts';
import { HanoiReplayer } from './replayer.ts';
import { hanoiWalk } from './walk.ts';
import { renderHanoi } from './render.ts';
import { hanoiScene } from './scene.ts';
import { z } from 'zod';
import { textMoves } from '../move-form.ts';
import type { Puzzle } from '../puzzle.ts';
import { replayAll } from '../replay-all.ts';

/** Largest tower accepted: 2^24 − 1 ≈ 16.8 M moves is the longest optimal solution we ever validate. */
export const HANOI_MAX_DISCS = 24;

/** Checks one peg string field; returns a reason or null. */
function pegStringProblem(name: string, value: unknown): string | null {
  if (typeof value !== 'string') return `hanoi "${name}" must be a string of peg letters A/B/C, one per disc`;
  if (value.length < 1 || value.length > HANOI_MAX_DISCS) {
    return `hanoi "${name}" has ${value.length} discs; expected 1 to ${HANOI_MAX_DISCS}`;
  }
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c !== 'A' && c !== 'B' && c !== 'C') {
      return `hanoi "${name}" has unknown peg letter ${JSON.stringify(c)} for disc ${i + 1} (pegs are A, B, C)`;
    }
  }
  return null;
}

function parseHanoi(json: unknown): Result<HanoiState> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return reject('bad-state', 'a hanoi state must be a JSON object {"kind":"hanoi","pegs":3,"start":…,"goal":…}');
  }
  const o = json as Record<string, unknown>;
  if (o.kind !== 'hanoi') return reject('bad-state', `expected kind "hanoi", got ${JSON.stringify(o.kind)}`);
  // Absent pegs means the only supported count; anything else is a clear error rather than a silent 3.
  if (o.pegs !== undefined && o.pegs !== 3) return reject('bad-state', `hanoi "pegs" must be 3, got ${JSON.stringify(o.pegs)}`);
  const problem = pegStringProblem('start', o.start) ?? pegStringProblem('goal', o.goal);
  if (problem) return reject('bad-state', problem);
  const start = o.start as string;
  const goal = o.goal as string;
  if (start.length !== goal.length) {
    return reject('bad-state', `hanoi "start" has ${start.length} discs but "goal" has ${goal.length}`);
  }
  // Every peg string is legal: a peg's discs are always stacked in size order, so no further checks.
  return ok({ kind: 'hanoi', pegs: 3, start, goal });
}

function normalizeHanoiSpec(spec: ScrambleSpec): Result<ScrambleSpec<'hanoi'>> {
  if (spec.kind !== 'hanoi') return reject('bad-spec', `expected a hanoi spec, got kind ${JSON.stringify(spec.kind)}`);
  const discs = spec.discs ?? spec.size;
  if (discs === undefined) return reject('bad-spec', 'a hanoi spec needs "discs" (2 to 24)');
  if (!Number.isInteger(discs) || discs < 2 || discs > HANOI_MAX_DISCS) {
    // 1 disc is never 2 moves from its goal, so no scramble could satisfy the "at least 2 moves" rule.
    return reject('bad-spec', `hanoi "discs" must be an integer from 2 to ${HANOI_MAX_DISCS}, got ${JSON.stringify(discs)}`);
  }
  if (spec.randomGoal !== undefined && typeof spec.randomGoal !== 'boolean') {
    return reject('bad-spec', `hanoi "randomGoal" must be true or false, got ${JSON.stringify(spec.randomGoal)}`);
  }
  return ok({ kind: 'hanoi', discs, randomGoal: spec.randomGoal ?? false });
}

/** All discs on one peg. */
function isTower(pegs: string): boolean {
  return pegs.length === 0 || pegs === pegs[0]!.repeat(pegs.length);
}

function discsOf(spec: ScrambleSpec): number {
  const discs = spec.discs ?? spec.size;
  if (discs === undefined || !Number.isInteger(discs) || discs < 1 || discs > HANOI_MAX_DISCS) {
    throw new RangeError(`hanoi: spec not normalized (discs ${String(discs)})`);
  }
  return discs;
}

/** A uniform peg letter per disc. */
function randomPegs(n: number, rng: Rng): string {
  let s = '';
  for (let d = 0; d < n; d++) s += 'ABC'[rng.int(3)];
  return s;
}

/** Parses "AC AB, CB" or "acab" into the compact wire string "ACABCB". */
function parseHanoiMoves(text: string): Result<WireMoves> {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ',' || c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    const u = c.toUpperCase();
    if (u !== 'A' && u !== 'B' && u !== 'C') {
      return reject('bad-notation', `unknown peg letter ${JSON.stringify(c)} at character ${i} (pegs are A, B, C)`);
    }
    out += u;
  }
  if (out.length % 2 !== 0) {
    return reject('bad-notation', `odd number of peg letters (${out.length}): every move is a from-letter and a to-letter`);
  }
  return ok(out);
}

/** Towers of Hanoi, 3 pegs, any start to any goal (seed 002). */
export const hanoi: Puzzle<HanoiState> = {
  kind: 'hanoi',
  wireShape: z.object({ kind: z.literal('hanoi'), pegs: z.literal(3), start: z.string(), goal: z.string() }),
  parse: parseHanoi,
  sizeOptions: { discs: `number of discs, 2..${HANOI_MAX_DISCS}`, randomGoal: 'draw a random goal too, instead of all discs on C' },
  defaultSpec: { kind: 'hanoi', discs: 8 },
  normalizeSpec: normalizeHanoiSpec,
  compliance: {
    specs: [
      { kind: 'hanoi', discs: 3 },
      { kind: 'hanoi', discs: 5, randomGoal: true },
    ],
    // The classic full tower, which every Hanoi bot should take (the iterative method takes nothing else).
    fixed: [{ kind: 'hanoi', pegs: 3, start: 'AAAA', goal: 'CCCC' }],
  },
  sizeMeasure: (state: HanoiState) => state.start.length,
  moves: textMoves,

  goal(spec: ScrambleSpec): HanoiState {
    const tower = 'C'.repeat(discsOf(spec));
    return { kind: 'hanoi', pegs: 3, start: tower, goal: tower };
  },

  isSolved(state: HanoiState): boolean {
    return state.start === state.goal;
  },

  scramble(spec: ScrambleSpec, rng: Rng): HanoiState {
    const n = discsOf(spec);
    if (n < 2) throw new RangeError('hanoi.scramble needs at least 2 discs');
    for (;;) {
      const start = randomPegs(n, rng);
      const goal = spec.randomGoal ? randomPegs(n, rng) : 'C'.repeat(n);
      if (hanoiDistance(start, goal) >= 2) return { kind: 'hanoi', pegs: 3, start, goal };
    }
  },

  walk(spec: ScrambleSpec, k: number, rng: Rng): HanoiState {
    const n = discsOf(spec);
    const goal = spec.randomGoal ? randomPegs(n, rng) : 'C'.repeat(n);
    return { kind: 'hanoi', pegs: 3, start: hanoiWalk(goal, k, rng).end, goal };
  },

  parseMoves: parseHanoiMoves,

  formatMoves(moves: WireMoves): string {
    return typeof moves === 'string' ? moves : moves.map((m) => m.join('')).join('');
  },

  replayer(start: HanoiState): HanoiReplayer {
    return new HanoiReplayer(start);
  },

  replay: (start: HanoiState, moves: WireMoves) => replayAll(new HanoiReplayer(start), moves),

  bound(state: HanoiState): Bound {
    const d = hanoiDistance(state.start, state.goal);
    return { optimal: d, lowerBound: d };
  },

  specOf: (state: HanoiState) => ({ kind: 'hanoi', discs: state.goal.length, randomGoal: !isTower(state.goal) }),

  className(state: HanoiState): string {
    // A goal spread over the pegs is a different problem from gathering a tower (the seed's iterative rule
    // does not apply, optimal lengths differ), so it rates apart.
    return `hanoi ${state.goal.length}${isTower(state.goal) ? '' : ' random-goal'}`;
  },

  describe: describeHanoi,
  render: renderHanoi,
  scene: hanoiScene,
};
