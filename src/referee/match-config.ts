import { z } from 'zod';
import type { Result, ScrambleSpec } from '../core/types.ts';
import { reject } from '../core/types.ts';
import type { TieBreak } from '../stats/outcome.ts';
import { coreDealSchema, type CoreDeal } from './settings/core-deal.ts';
import { specSchema, storedSettingsShape, type StoredSettings } from './settings/stored-settings.ts';
import { validateSprt } from '../stats/sprt.ts';

/**
 * Everything that defines a match, stored as the match's config so `--resume` needs nothing else: its bots
 * and every setting of settings/match-settings.ts (where each is described), the spec's inside `spec`.
 * The scrambles themselves are stored too; `spec`/`scrambleFile` record where they come from.
 */
export type MatchConfig = {
  /** Bot names, in the order given (registered or built-in). */
  readonly bots: readonly string[];
  /** Generated scrambles: the spec, as the puzzle kind completed it; absent when scrambles came from a file. */
  readonly spec?: ScrambleSpec;
  /**
   * How the cores were dealt when the match was started here (a local match; absent in older ones and in a
   * distributed match, whose workers each deal their own): what its report says about pinning.
   */
  readonly cores?: CoreDeal;
} & StoredSettings;

export { MATCH_DEFAULTS, MATCH_LIMITS } from './settings/match-settings.ts';

/**
 * The runtime shape of a {@link MatchConfig}: what a config read back from a database must satisfy. Its
 * fields are the settings' own stored checks, so the format a database holds is the settings' format.
 */
export const matchConfigSchema = z
  .object({
    bots: z.array(z.string().min(1)).min(1),
    spec: specSchema.optional(),
    cores: coreDealSchema.optional(),
    ...storedSettingsShape,
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
  // The shape is built from the settings list, so zod cannot name its fields' types; the settings' types do.
  const config = r.data as unknown as MatchConfig;
  if (new Set(config.bots).size !== config.bots.length) return reject('bad-config', 'match config: a bot is named twice');
  if (config.sprt) {
    if (config.bots.length !== 2) return reject('bad-config', `match config: an SPRT compares exactly two bots (got ${config.bots.length})`);
    const sprt = validateSprt(config.sprt);
    if (!sprt.ok) return reject('bad-config', `match config: sprt: ${sprt.reason}`);
  }
  return { ok: true, value: config };
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
