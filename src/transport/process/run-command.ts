/**
 * Runs a short helper program to its end and hands back what it said: for the sandbox's one-off questions
 * to the machine (does bwrap work here, which interpreter is behind a shim, compile the relay). Never
 * throws; a program that cannot start is an `error`.
 */
import { spawnSync } from 'node:child_process';

/** How a helper program ended. */
export interface CommandRun {
  /** Exit code; null when killed by a signal or not started. */
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Why it could not start or was stopped (ENOENT, EACCES, ETIMEDOUT), if so. */
  readonly error?: string;
}

/** Runs `command args` with exactly `env`, waiting at most `timeoutMs` (then SIGKILL). */
export function runCommand(
  command: string,
  args: readonly string[],
  opts: { readonly env?: Readonly<Record<string, string>>; readonly cwd?: string; readonly timeoutMs?: number } = {},
): CommandRun {
  const r = spawnSync(command, args, {
    env: { ...(opts.env ?? {}) },
    ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
    timeout: opts.timeoutMs ?? 10_000,
    killSignal: 'SIGKILL',
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1024 * 1024,
  });
  const error = r.error ? ((r.error as NodeJS.ErrnoException).code ?? r.error.message) : undefined;
  return { status: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ...(error !== undefined ? { error } : {}) };
}
