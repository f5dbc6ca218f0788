/**
 * The launch plan: how every bot the arena starts is started, derived in one place from the settings of
 * what it plays (a match's stored config, as its jobs carry it; or a check's settings). A local match, a
 * worker, the ladder, `bot check` and the capability preflight all derive their bots' plan here and hand it
 * to the one launcher (launch-bot.ts), so the same settings give the same limits on every path and every
 * machine of the same size. What happens once a bot is up (its warm-up solve, restarts after a crash or a
 * time-out, the start-failure rule) is the referee player's, from the same limits, on every path alike.
 */
import { startTimeoutMs } from '../../referee/match-config.ts';
import { DEFAULT_DISK_BUDGET_BYTES } from '../../referee/settings/match-settings.ts';
import { cpuBackstopSeconds, defaultMemoryLimit } from '../../transport/process/bot-limits.ts';

/** The settings a plan is derived from: a match's (as its jobs' PlayLimits carry them) or a check's. */
export interface PlanSettings {
  /** Per scramble and bot. */
  readonly timeLimitMs: number;
  /** Scrambles one bot process may play (the match's count): the CPU backstop covers all of them. */
  readonly scrambleCount?: number;
  /** Per bot; absent, the machine's default (a new match stores the one it played with). */
  readonly memoryLimitBytes?: number;
  /** Per bot, scratch and cache together; absent (a match from before the setting), the default. */
  readonly diskBudgetBytes?: number;
  /** The bots run outside the sandbox: decided and recorded by sandbox-policy.ts, never by the plan. */
  readonly unconfined?: boolean;
  /** Pin each player's bots to cores of its own, where the machine can (app/launch/cores.ts). */
  readonly affinity?: boolean;
}

/** How one bot is started. */
export interface LaunchPlan {
  readonly timeLimitMs: number;
  /** How long it may take to start and say hello (a remote bot: to dial in). */
  readonly startTimeoutMs: number;
  /**
   * What the kernel holds it to: memory, a CPU-time backstop behind the wall clock (every core busy for
   * every scramble's time limit, plus a minute: transport/process/bot-limits.ts), and its disk budget.
   */
  readonly limits: { readonly memoryBytes: number; readonly cpuSeconds: number; readonly diskBytes: number };
  readonly unconfined: boolean;
  readonly affinity: boolean;
}

/**
 * The plan of a bot playing under `s`. `startTimeoutMs` replaces the derived start timeout where a command
 * has its own wait (`bot check --wait`: a remote bot may take minutes to be started by hand).
 */
export function launchPlanOf(s: PlanSettings, over: { readonly startTimeoutMs?: number } = {}): LaunchPlan {
  return {
    timeLimitMs: s.timeLimitMs,
    startTimeoutMs: over.startTimeoutMs ?? startTimeoutMs(s),
    limits: {
      memoryBytes: s.memoryLimitBytes ?? defaultMemoryLimit(),
      cpuSeconds: cpuBackstopSeconds(s.timeLimitMs, s.scrambleCount ?? 1),
      diskBytes: s.diskBudgetBytes ?? DEFAULT_DISK_BUDGET_BYTES,
    },
    unconfined: s.unconfined === true,
    affinity: s.affinity === true,
  };
}
