/**
 * What the process launcher needs from a confinement (src/sandbox builds one; transport knows only this
 * shape): given the bot's program, folder and environment, the outer command that starts it confined.
 * The launcher keeps its own parts of the start (resource limits, CPU pinning) and hands the confinement
 * that chain to wrap; the confinement's own process is started with an empty environment. Like bwrap, the
 * outer process must report the bot's death by a signal as exit code 128 + signal, and its first child
 * must be its own (not counted against the bot's process limit; see process-watch.ts).
 */
import type { Result } from '../../core/types.ts';

/** A program and its arguments. */
export interface Command {
  readonly command: string;
  readonly args: readonly string[];
}

/** One start to confine. */
export interface ConfineRequest {
  /** The bot's program as registered (a name looked up on PATH, or a path relative to `cwd`). */
  readonly command: string;
  readonly args: readonly string[];
  /** The bot's own folder; absent = the referee's current folder (the confinement may refuse it). */
  readonly cwd?: string;
  /** The protocol's variables and any extra the caller gave: the bot's whole environment apart from PATH and HOME. */
  readonly env: Readonly<Record<string, string>>;
  /** A WebSocket bot: the referee's unix socket of this bot alone, to be reachable inside as 127.0.0.1:port. */
  readonly channel?: { readonly socket: string; readonly port: number };
  /**
   * A real start (absent for a check that only asks whether the bot could start): the bot's name (its
   * persistent cache is its own), its memory limit and disk budget, and the CPUs it is pinned to. The
   * confinement then takes what the start holds (a uid, control groups, a writable space) until
   * {@link ConfinedStart.release}.
   */
  readonly start?: {
    readonly name: string;
    readonly memoryBytes: number;
    readonly diskBytes: number;
    readonly cpus?: readonly number[];
  };
}

/** What the kernel enforces on one confined start (reported by the probe, read back after the bot is gone). */
export interface KernelLimits {
  /** How many of the bot's processes the kernel killed at its memory limit (its control group); 0 without one. */
  oomKills(): number;
}

/** A start readied by the confinement. */
export interface ConfinedStart {
  /** The program to run inside (the real interpreter behind a version-manager shim, for instance). */
  readonly program: string;
  /**
   * Programs that run inside before the bot, each ending with the one that follows (the relay of a
   * WebSocket bot): placed right before `program`, so the limits and the CPU pinning bind them too.
   */
  readonly before: readonly string[];
  /** The bot's environment inside (the launcher may add to it, e.g. NODE_OPTIONS for the memory limit). */
  readonly env: Readonly<Record<string, string>>;
  /**
   * The outer command around `chain` (the limits shell, taskset, `before` and the bot) giving the bot exactly `env`.
   * `hidden` holds options passed through fd 3 (so the bot's token is in no command line), NUL-separated;
   * `filter`, when present, is written to fd 4 (a seccomp program bwrap loads).
   */
  wrap(
    chain: Command,
    env: Readonly<Record<string, string>>,
  ): { readonly command: string; readonly args: string[]; readonly hidden: string[]; readonly filter?: Buffer };
  /** The kernel's side of a start's limits. */
  readonly kernel: KernelLimits;
  /** Gives back what the start held (its uid, control groups, writable space; its cache is kept). Idempotent; call once the bot is gone, or when it never starts. */
  release(): void;
}

/** Confines bot processes. */
export interface Confinement {
  /** Readies one start, or says why this bot cannot be started confined (a one-line reason). */
  prepare(request: ConfineRequest): Result<ConfinedStart>;
}
