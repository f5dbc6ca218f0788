/**
 * Which bots run in the sandbox, decided once per match (or check, or worker job) and recorded.
 *
 * Every bot the arena starts runs confined (src/sandbox). Where this machine cannot confine one, built-in
 * bots (the project's own code) run unconfined with one warning line; a registered bot is refused with
 * the cause and the fix, unless the user says --no-sandbox. A match whose bots run unconfined, for either
 * reason, stores it (config.unconfined), and a resumed match or a worker keeps to what is stored: a match
 * started confined is never finished unconfined, and a worker plays an unconfined match only when its
 * operator said --no-sandbox too (or the match has built-in bots only).
 */
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import type { MatchConfig } from '../../referee/match-config.ts';
import { describeUnsupported, sandboxSupport, type SandboxSupport } from '../../sandbox/probe.ts';
import { createSandbox } from '../../sandbox/sandbox.ts';
import { defaultCacheDir } from '../../solvers/sliding/pdb-cache.ts';
import type { Confinement } from '../../transport/process/confinement.ts';
import type { ResolvedBot } from '../bots/bot-registry.ts';
import type { AppContext } from '../context.ts';
import { isOwnedName } from '../bots/bot-owner.ts';
import { guardedPaths, projectEntry } from '../bots/guarded-paths.ts';

/** How the bots of one run start: confined, or not (then `notice` says so once). */
export interface SandboxDecision {
  readonly confined: boolean;
  readonly notice?: string;
}

const started = (bots: readonly ResolvedBot[]): ResolvedBot[] => bots.filter((b) => b.source !== 'remote');
/** Participants' bots (`alice/astar`): submitted, so never started unconfined, whatever a flag says. */
const ownedOf = (bots: readonly ResolvedBot[]): string[] => bots.filter((b) => isOwnedName(b.name)).map((b) => b.name);
const registered = (bots: readonly ResolvedBot[]): string[] => started(bots).filter((b) => b.source === 'command').map((b) => b.name);

/** The warning of a run whose bots are unconfined because the user said so. */
export const NO_SANDBOX_NOTICE = 'warning: --no-sandbox: the bots run unconfined, with your own rights and view of this machine; the match records it';

/** Why a registered bot is not started on a machine that cannot confine it. */
function refusal(names: readonly string[], support: Extract<SandboxSupport, { ok: false }>): string {
  const who = names.length === 1 ? `bot ${names[0]} is` : `bots ${names.join(', ')} are`;
  return `${who} not started: ${describeUnsupported(support)} (or pass --no-sandbox to run it unconfined, recorded with the match)`;
}

/**
 * A new match: confined when possible; with --no-sandbox, or built-in bots only on a machine that
 * cannot confine, unconfined (the config to store says so); registered bots there are refused.
 */
export function decideNewMatch(bots: readonly ResolvedBot[], asked: boolean, support: () => SandboxSupport = sandboxSupport): Result<SandboxDecision> {
  if (asked) {
    const owned = ownedOf(bots);
    if (owned.length) return reject('sandbox', `${owned.join(', ')} ${owned.length === 1 ? 'is a participant\'s bot' : 'are participants\' bots'}: a submitted bot never runs unconfined (--no-sandbox)`);
    return ok({ confined: false, notice: NO_SANDBOX_NOTICE });
  }
  if (started(bots).length === 0) return ok({ confined: true });
  const s = support();
  if (s.ok) return ok({ confined: true });
  const names = registered(bots);
  if (names.length) return reject('sandbox', refusal(names, s));
  return ok({ confined: false, notice: `warning: the built-in bots run unconfined: ${describeUnsupported(s)}; the match records it` });
}

/** A stored match played on: the way it started (config.unconfined) holds to its end. */
export function decideStoredMatch(
  id: number,
  config: Pick<MatchConfig, 'unconfined'>,
  bots: readonly ResolvedBot[],
  asked: boolean,
  support: () => SandboxSupport = sandboxSupport,
): Result<SandboxDecision> {
  if (config.unconfined) return ok({ confined: false, notice: `warning: match ${id} was started with its bots unconfined, and goes on that way` });
  if (asked) return reject('sandbox', `match ${id} was started with its bots confined; --no-sandbox cannot change that halfway`);
  if (started(bots).length === 0) return ok({ confined: true });
  const s = support();
  if (!s.ok) return reject('sandbox', `match ${id} was started with its bots confined, and ${describeUnsupported(s)}`);
  return ok({ confined: true });
}

/**
 * A worker's job: confined unless the match is stored unconfined; an unconfined match with registered
 * bots needs the worker's own --no-sandbox. The rejection sends the job back for another machine.
 */
export function decideJob(bot: ResolvedBot, matchUnconfined: boolean, workerUnconfined: boolean, support: () => SandboxSupport = sandboxSupport): Result<SandboxDecision> {
  if (matchUnconfined) {
    if (isOwnedName(bot.name)) return reject('sandbox', `${bot.name} is a participant's bot: a submitted bot never runs unconfined`);
    if (bot.source === 'command' && !workerUnconfined) {
      return reject('sandbox', `the match runs its bots unconfined and this worker was not started with --no-sandbox`);
    }
    return ok({ confined: false });
  }
  const s = support();
  return s.ok ? ok({ confined: true }) : reject('sandbox', describeUnsupported(s));
}

export { guardedPaths, projectEntry };

/** The confinement of one bot (a probe that worked is a precondition: see the decide functions). */
export function confinementFor(bot: ResolvedBot, ctx: Pick<AppContext, 'projectRoot' | 'dbLocation'>): Confinement {
  const support = sandboxSupport();
  if (!support.ok) throw new Error(`confinementFor without a sandbox: ${support.cause}`);
  const entry = projectEntry(bot, ctx.projectRoot);
  return createSandbox({
    support,
    guarded: guardedPaths(ctx),
    ...(entry ? { code: { root: ctx.projectRoot, entry, cacheDir: defaultCacheDir() } } : {}),
    ...(bot.snapshot ? { played: { path: bot.snapshot.path, avoid: bot.snapshot.rivals, ...(bot.snapshot.runtime ? { runtime: bot.snapshot.runtime } : {}) } } : {}),
  });
}

/** How a local match's bots start: the config to play under (unconfined recorded), each bot's confinement. */
export interface MatchSandbox {
  readonly config: MatchConfig;
  confine(bot: ResolvedBot): Confinement | undefined;
  readonly notice?: string;
}

/**
 * Decides for a new or resumed local match (decideNewMatch, decideStoredMatch), and readies each bot's
 * confinement once: a bot the sandbox cannot take (its folder is the checkout, its interpreter is not
 * found) is named now, before anything is stored, not as a start failure on every scramble.
 */
export function sandboxOfMatch(
  ctx: Pick<AppContext, 'projectRoot' | 'dbLocation'>,
  stored: MatchConfig,
  bots: readonly ResolvedBot[],
  how: { readonly new: true } | { readonly resume: number; readonly unconfined: boolean },
): Result<MatchSandbox> {
  const decided = 'new' in how ? decideNewMatch(bots, stored.unconfined === true) : decideStoredMatch(how.resume, stored, bots, how.unconfined);
  if (!decided.ok) return decided;
  const confined = decided.value.confined;
  const confinements = new Map<string, Confinement>();
  for (const bot of bots) {
    if (!confined || bot.source === 'remote') continue;
    const c = confinementFor(bot, ctx);
    const ready = c.prepare({ command: bot.command!, args: bot.args, env: {}, ...(bot.cwd !== undefined ? { cwd: bot.cwd } : {}) });
    if (!ready.ok) return reject('sandbox', `bot ${bot.name} cannot start in the sandbox: ${ready.reason}`);
    confinements.set(bot.name, c);
  }
  return ok({
    config: confined || stored.unconfined ? stored : { ...stored, unconfined: true },
    confine: (bot) => confinements.get(bot.name),
    ...(decided.value.notice ? { notice: decided.value.notice } : {}),
  });
}
