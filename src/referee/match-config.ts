import { z } from 'zod';
import { PUZZLE_KINDS } from '../core/puzzle-kinds.ts';
import type { Result, ScrambleSpec } from '../core/types.ts';
import { reject } from '../core/types.ts';
import { SCORE_BY, type ScoreBy, type TieBreak } from './outcome.ts';
import { validateSprt, type SprtParams } from './sprt.ts';

/**
 * Everything that defines a match, stored as the match's config so `--resume` needs nothing else.
 * The scrambles themselves are stored too; `spec`/`scrambleFile` record where they come from.
 */
export interface MatchConfig {
  /** Bot names, in the order given (registered or built-in). */
  readonly bots: readonly string[];
  /** Generated scrambles: the spec; absent when scrambles came from a file. */
  readonly spec?: ScrambleSpec;
  /** Number of scrambles. */
  readonly count: number;
  /** The user's seed (number or string), as given. */
  readonly seed: string;
  /** Random walk of k moves instead of uniform states. */
  readonly walk?: number;
  /** Path of the scramble file, informational. */
  readonly scrambleFile?: string;
  readonly timeLimitMs: number;
  readonly maxMoves: number;
  /** Parallel (scramble, bot) jobs; each job holds its own bot process. */
  readonly concurrency: number;
  /**
   * Equal move counts: a faster bot wins only when wall times differ by more than this; absent = the
   * default relative margin of outcome.ts (10% of the slower time, at least 5 ms).
   */
  readonly marginMs?: number;
  /**
   * Which time breaks a tie on moves: `wall` (the referee's clock; also when absent) or `cpu` (the CPU time
   * of the bot's processes, for bots the arena starts on Linux). Stored, so a resumed match and
   * `arena show` decide ties the same way.
   */
  readonly scoreBy?: ScoreBy;
  /**
   * Stop early with the sequential probability ratio test (two bots only): the match plays scrambles in
   * order until the test accepts H0 or H1, `count` being the most it plays.
   */
  readonly sprt?: SprtParams;
  /** Memory limit of each bot, bytes, as played (the default is the machine's); absent in older matches. */
  readonly memoryLimitBytes?: number;
  /** Pin each parallel player's bots to cores of their own (Linux, taskset), so jobs do not share a core. */
  readonly affinity?: boolean;
  /**
   * The bots the arena starts ran outside the sandbox (--no-sandbox, or built-in bots on a machine that
   * cannot confine): stored so every report says so and a resume or a worker keeps to it. Absent: confined.
   */
  readonly unconfined?: boolean;
  /**
   * Before each bot's first timed scramble of a class, and after every restart, an untimed warm-up solve of a
   * throwaway scramble of the class, never recorded (warm-up.ts). New matches store it either way (on unless
   * `--no-warm-up`); absent in matches created before it existed, which were played without it, so a
   * resumed one goes on without it.
   */
  readonly warmUp?: boolean;
}

/** Defaults for every optional setting of a match. */
export const MATCH_DEFAULTS = {
  count: 10,
  timeLimitMs: 10_000,
  maxMoves: 50_000_000,
  concurrency: 1,
} as const;

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
  seedLength: { min: 1, max: 200 },
} as const;

const int = (r: { min: number; max: number }) => z.number().int().min(r.min).max(r.max);

const specSchema = z
  .object({
    kind: z.enum(PUZZLE_KINDS),
    rows: z.number().int().positive().optional(),
    cols: z.number().int().positive().optional(),
    size: z.number().int().positive().optional(),
    discs: z.number().int().positive().optional(),
    randomGoal: z.boolean().optional(),
  })
  .strict();

/** The runtime shape of a {@link MatchConfig}: what a config read back from a database must satisfy. */
export const matchConfigSchema = z
  .object({
    bots: z.array(z.string().min(1)).min(1),
    spec: specSchema.optional(),
    count: int(MATCH_LIMITS.count),
    seed: z.string().min(MATCH_LIMITS.seedLength.min).max(MATCH_LIMITS.seedLength.max),
    walk: int(MATCH_LIMITS.walk).optional(),
    scrambleFile: z.string().optional(),
    timeLimitMs: z.number().int().min(MATCH_LIMITS.timeLimitMs.min).max(MATCH_LIMITS.timeLimitMs.max),
    maxMoves: int(MATCH_LIMITS.maxMoves),
    concurrency: int(MATCH_LIMITS.concurrency),
    marginMs: z.number().min(MATCH_LIMITS.marginMs.min).max(MATCH_LIMITS.marginMs.max).optional(),
    scoreBy: z.enum(SCORE_BY).optional(),
    sprt: z
      .object({
        elo0: z.number(),
        elo1: z.number(),
        alpha: z.number(),
        beta: z.number(),
        model: z.enum(['normalized', 'logistic']),
      })
      .strict()
      .optional(),
    memoryLimitBytes: int(MATCH_LIMITS.memoryLimitBytes).optional(),
    affinity: z.boolean().optional(),
    unconfined: z.boolean().optional(),
    warmUp: z.boolean().optional(),
  })
  .strict();

/**
 * Validates a match config from an untrusted place (a database row, an API body): the shape, every range
 * above, and that the bots are distinct. The reason names the first field that is wrong.
 */
export function parseMatchConfig(value: unknown): Result<MatchConfig> {
  const r = matchConfigSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue.path.length ? issue.path.map(String).join('.') : 'config';
    return reject('bad-config', `match config: ${where}: ${issue.message}`);
  }
  if (new Set(r.data.bots).size !== r.data.bots.length) return reject('bad-config', 'match config: a bot is named twice');
  if (r.data.sprt) {
    if (r.data.bots.length !== 2) return reject('bad-config', `match config: an SPRT compares exactly two bots (got ${r.data.bots.length})`);
    const sprt = validateSprt(r.data.sprt);
    if (!sprt.ok) return reject('bad-config', `match config: sprt: ${sprt.reason}`);
  }
  return { ok: true, value: r.data as MatchConfig };
}

/**
 * How long a bot may take to start and say hello. It follows the match's time limit, since a bot is
 * expected to answer within it, with a floor for interpreter start-up on a loaded machine and a ceiling so
 * a bot that never starts costs a bounded time (twice: see the start-failure rule of the match runner).
 */
export function startTimeoutMs(config: Pick<MatchConfig, 'timeLimitMs'>): number {
  return Math.min(120_000, Math.max(10_000, 2 * config.timeLimitMs));
}

/** The match's rule for equal moves, as compareResults takes it. */
export function tieBreakOf(config: Pick<MatchConfig, 'marginMs' | 'scoreBy'>): TieBreak {
  return {
    ...(config.marginMs !== undefined ? { marginMs: config.marginMs } : {}),
    ...(config.scoreBy !== undefined ? { scoreBy: config.scoreBy } : {}),
  };
}

/** Whether a match's bots get the untimed warm-up solve (see MatchConfig.warmUp), as its jobs' limits carry it. */
export function warmUpOf(config: MatchConfig): { warmUp: boolean } {
  return { warmUp: config.warmUp === true };
}

/** The memory limit of a match's bots, when its config names one. */
export function memoryOf(config: MatchConfig): { memoryLimitBytes?: number } {
  return config.memoryLimitBytes !== undefined ? { memoryLimitBytes: config.memoryLimitBytes } : {};
}

/** The sandbox rule of a match's plays: unconfined when its config says so (a worker keeps to it). */
export function sandboxOf(config: MatchConfig): { unconfined?: boolean } {
  return config.unconfined ? { unconfined: true } : {};
}
