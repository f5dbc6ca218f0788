/**
 * Every setting of a match, declared once. `arena match`'s flags and their help, the fields a preset
 * (matches/*.json) may set, the start options of the match service, the stored match config and its
 * runtime check, `--json`'s `match.settings` and the web's configuration view are all read off this list:
 * adding a setting is one entry here, plus the code that uses it.
 */
import { z } from 'zod';
import { PUZZLE_KINDS, type PuzzleKind } from '../../core/puzzle-kinds.ts';
import { ok, reject } from '../../core/types.ts';
import { allPuzzles, DEFAULT_KIND, getPuzzle, puzzleKinds } from '../../puzzles/index.ts';
import { sizeOptionHelp } from '../../puzzles/size-options.ts';
import type { SizeOption } from '../../puzzles/puzzle.ts';
import { spellByteSize } from '../../core/units.ts';
import { SCORE_BY } from '../../stats/outcome.ts';
import { parseSprt, type SprtParams } from '../../stats/sprt.ts';
import type { Setting } from './setting.ts';
import { byteSize, choice, custom, duration, onOff, shortText, sizeNumber, wholeNumber, type ValueType } from './value-types.ts';

/**
 * The accepted range of every number of a match, inclusive. Each bound has a reason: timers take at most
 * 2^31 − 1 ms (beyond, Node fires them at once), and a day per scramble is already absurd; a billion moves
 * is past what any answer can be held as (strings stop near 2^29 characters); every job of the pool holds
 * its own bot processes, so parallelism beyond a few dozen only starves them; a million scrambles is weeks
 * of play and its results alone fill memory; walks are generated move by move.
 */
export const MATCH_LIMITS = {
  timeLimitMs: { min: 1, max: 86_400_000 },
  maxMoves: { min: 1, max: 1_000_000_000 },
  concurrency: { min: 1, max: 64 },
  count: { min: 1, max: 1_000_000 },
  walk: { min: 0, max: 100_000_000 },
  marginMs: { min: 0, max: 86_400_000 },
  memoryLimitBytes: { min: 16 * 2 ** 20, max: 2 ** 40 },
  diskBudgetBytes: { min: 2 ** 20, max: 2 ** 40 },
  seedLength: { min: 1, max: 200 },
} as const;

/** Usual values, which decide the unit a bare number is hinted in (`--margin 5`: 5ms; `--memory-limit 512`: 512m). */
const MARGIN_TYPICAL_MS = 5;
const MEMORY_TYPICAL_BYTES = 2 ** 30;

/**
 * A bot's disk budget unless a match says otherwise: its scratch and its cache together. The sandbox's
 * fallback for a start without one (transport/process/bot-limits.ts DEFAULT_DISK_BYTES) is the same, held by a test.
 */
export const DEFAULT_DISK_BUDGET_BYTES = 256 * 2 ** 20;

/**
 * Keeps each entry's literal types (its key, part, value type), from which the stored config's type is
 * read, and holds its default and omitted value to its value type. (`any`: the value type is the entry's own.)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const setting = <const S extends Setting<any, string>>(s: S & Pick<Setting<ValueOf<S['value']>>, 'default' | 'omitted'>): S => s;
type ValueOf<T> = T extends ValueType<infer V> ? V : never;

const sizeHelp = (option: SizeOption) => () => sizeOptionHelp(option, allPuzzles());

const sprtStored: z.ZodType<SprtParams> = z
  .object({ elo0: z.number(), elo1: z.number(), alpha: z.number(), beta: z.number(), model: z.enum(['normalized', 'logistic']) })
  .strict();
const spellSprt = (p: SprtParams) => `elo0=${p.elo0},elo1=${p.elo1},alpha=${p.alpha},beta=${p.beta},model=${p.model}`;

const kindValue = custom<PuzzleKind>(
  '<kind>',
  (t) => (getPuzzle(t).ok ? ok(t as PuzzleKind) : reject('bad-kind', `must be ${puzzleKinds().join(' | ')}, got ${JSON.stringify(t)}`)),
  z.enum(PUZZLE_KINDS),
  (k) => k,
);

const fileValue = custom<string>('<file>', (t) => (t.trim() ? ok(t) : reject('bad-file', 'must name a file')), z.string(), (f) => f);

/** The settings, in the order `arena match --help` lists their flags. */
export const MATCH_SETTINGS = {
  kind: setting({ flag: 'puzzle', key: 'kind', part: 'spec', value: kindValue, help: () => `${puzzleKinds().join(' | ')} (default ${DEFAULT_KIND})`, required: true, example: puzzleKinds().find((k) => k !== DEFAULT_KIND) as PuzzleKind }),
  size: setting({ flag: 'size', key: 'size', part: 'spec', value: sizeNumber('<n>'), help: sizeHelp('size'), example: 16 }),
  rows: setting({ flag: 'rows', key: 'rows', part: 'spec', value: sizeNumber('<R>'), help: sizeHelp('rows'), example: 3 }),
  cols: setting({ flag: 'cols', key: 'cols', part: 'spec', value: sizeNumber('<C>'), help: sizeHelp('cols'), example: 4 }),
  discs: setting({ flag: 'discs', key: 'discs', part: 'spec', value: sizeNumber('<N>'), help: sizeHelp('discs'), example: 5 }),
  randomGoal: setting({ flag: 'random-goal', key: 'randomGoal', part: 'spec', value: onOff(true), help: sizeHelp('randomGoal'), example: true }),
  count: setting({
    flag: 'count',
    key: 'count',
    part: 'source',
    value: wholeNumber('<K>', MATCH_LIMITS.count),
    help: `number of scrambles, 1 to ${MATCH_LIMITS.count.max}`,
    default: 10,
    required: true,
    example: 3,
  }),
  seed: setting({
    flag: 'seed',
    key: 'seed',
    part: 'play',
    value: shortText('<S>', MATCH_LIMITS.seedLength),
    help: 'seed for the scrambles (default: a random one, printed and stored)',
    required: true,
    example: 'seven',
  }),
  walk: setting({ flag: 'walk', key: 'walk', part: 'source', value: wholeNumber('<k>', MATCH_LIMITS.walk), help: 'scramble by a random walk of k moves instead of a uniform state', example: 12 }),
  scrambleFile: setting({
    flag: 'scrambles',
    key: 'scrambleFile',
    part: 'source',
    value: fileValue,
    help: 'play the scrambles of a JSON Lines file instead of generating them',
    example: 'hanoi-towers.jsonl',
  }),
  timeLimitMs: setting({
    flag: 'time-limit',
    key: 'timeLimitMs',
    part: 'play',
    value: duration('<t>', MATCH_LIMITS.timeLimitMs, 10_000, z.number().int().min(MATCH_LIMITS.timeLimitMs.min).max(MATCH_LIMITS.timeLimitMs.max)),
    help: 'per scramble and bot, with its unit: 500ms, 10s, 2m, up to 24h',
    default: 10_000,
    required: true,
    example: '30s',
  }),
  maxMoves: setting({
    flag: 'max-moves',
    key: 'maxMoves',
    part: 'play',
    value: wholeNumber('<n>', MATCH_LIMITS.maxMoves),
    help: `most moves accepted per answer, up to ${MATCH_LIMITS.maxMoves.max}`,
    default: 50_000_000,
    required: true,
    example: 1000,
  }),
  concurrency: setting({
    flag: 'concurrency',
    key: 'concurrency',
    part: 'play',
    value: wholeNumber('<n>', MATCH_LIMITS.concurrency),
    help: `parallel jobs, each with its own bot processes, up to ${MATCH_LIMITS.concurrency.max}`,
    default: 1,
    required: true,
    example: 2,
  }),
  marginMs: setting({
    flag: 'margin',
    key: 'marginMs',
    part: 'play',
    value: duration('<t>', MATCH_LIMITS.marginMs, MARGIN_TYPICAL_MS, z.number().min(MATCH_LIMITS.marginMs.min).max(MATCH_LIMITS.marginMs.max)),
    help: 'equal moves: faster wins only beyond this margin, with its unit, e.g. 20ms (default 10% of the slower, ≥ 5ms)',
    absent: '10% of the slower time, at least 5ms',
    example: '20ms',
  }),
  scoreBy: setting({
    flag: 'score-by',
    key: 'scoreBy',
    part: 'play',
    value: choice('<time>', SCORE_BY),
    help: "which time breaks ties on moves: wall (the referee's clock) or cpu (CPU time of the bot's processes; Linux, bots the arena starts) (default wall)",
    // Stored only when it is cpu: configs from before the setting mean wall, and still do.
    omitted: 'wall',
    absent: 'wall',
    example: 'cpu',
  }),
  sprt: setting({
    flag: 'sprt',
    key: 'sprt',
    part: 'play',
    value: custom('<design>', parseSprt, sprtStored, spellSprt),
    help: 'stop early once an SPRT decides (two bots; --count is the most played): elo0=0,elo1=5[,alpha=0.05,beta=0.05][,model=normalized|logistic]',
    absent: 'none: every scramble is played',
    example: 'elo0=0,elo1=5,alpha=0.05,beta=0.05,model=normalized',
  }),
  memoryLimitBytes: setting({
    flag: 'memory-limit',
    key: 'memoryLimitBytes',
    part: 'play',
    value: byteSize('<size>', MATCH_LIMITS.memoryLimitBytes, MEMORY_TYPICAL_BYTES),
    help: 'per bot, e.g. 512m, 2g; a bot over it gets `memory` (default: 1/4 of RAM, at most 2g)',
    // The default is the machine's (bot-limits.ts), so the match service stores the one it played with.
    absent: "the machine's default (the match predates the setting)",
    example: '512m',
  }),
  diskBudgetBytes: setting({
    flag: 'disk-budget',
    key: 'diskBudgetBytes',
    part: 'play',
    value: byteSize('<size>', MATCH_LIMITS.diskBudgetBytes, DEFAULT_DISK_BUDGET_BYTES),
    help: 'per bot: what its scratch space and its own cache may hold together, e.g. 64m, 1g',
    default: DEFAULT_DISK_BUDGET_BYTES,
    // A match from before the setting, resumed, gets the default budget (the launch plan fills it in).
    absent: `${spellByteSize(DEFAULT_DISK_BUDGET_BYTES)} (the default; the match predates the setting)`,
    example: '64m',
  }),
  affinity: setting({
    flag: 'no-affinity',
    key: 'affinity',
    part: 'play',
    value: onOff(false),
    help: "Linux: do not pin bots to cores; by default, where the machine has more cores than parallel players, each player's bots get cores of their own (through taskset) and the referee and the exact oracle the rest",
    default: true,
    formerFlag: 'affinity',
    // Matches from before pinning was the default ran pinned only when asked, so a resumed one stays unpinned.
    absent: 'off (the match predates pinning by default)',
    example: false,
  }),
  unconfined: setting({
    flag: 'no-sandbox',
    key: 'unconfined',
    part: 'play',
    value: onOff(true),
    help: 'run the bots the arena starts unconfined, with your own rights (recorded with the match); by default each runs in a bubblewrap sandbox',
    omitted: false,
    absent: 'no: the bots ran in the sandbox',
    // The trust rule (docs/sandbox.md): a bot runs unconfined only when the user says so, and a preset file (perhaps
    // someone else's) is not the user saying so.
    notInPreset: 'a preset cannot turn the sandbox off; give --no-sandbox on the command line',
    example: true,
  }),
  warmUp: setting({
    flag: 'no-warm-up',
    key: 'warmUp',
    part: 'play',
    value: onOff(false),
    help: "no untimed warm-up solve of a throwaway scramble before each bot's first timed one of a class (and after each restart)",
    default: true,
    // Matches from before the warm-up existed were played without it, so a resumed one goes on without it.
    absent: 'off (the match predates the warm-up)',
    example: false,
  }),
} as const;

/** Every setting, in help order. */
export const SETTING_LIST: readonly Setting[] = Object.values(MATCH_SETTINGS) as readonly Setting[];

/** Defaults of a match's settings that have a fixed one. */
export const MATCH_DEFAULTS = {
  count: MATCH_SETTINGS.count.default,
  timeLimitMs: MATCH_SETTINGS.timeLimitMs.default,
  maxMoves: MATCH_SETTINGS.maxMoves.default,
  concurrency: MATCH_SETTINGS.concurrency.default,
} as const;
