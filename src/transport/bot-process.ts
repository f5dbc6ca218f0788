/**
 * A spawned bot process in its own process group, with the tail of its stderr kept for crash reasons.
 * Killing always targets the whole group, so helpers a bot forks (a Python bot's worker pool, a shell
 * wrapper's child) die with it. A process-wide 'exit' hook kills every group still alive, so no bot
 * outlives the referee.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

const TAIL_LINES = 20;
const LINE_CAP = 500;

/** Process groups we started and have not yet reaped. */
const liveGroups = new Set<number>();
let hooked = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** Kills every bot process group still alive. For the CLI's SIGINT/SIGTERM handlers; 'exit' calls it too. */
export function killAllBotProcesses(): void {
  for (const pid of liveGroups) killGroup(pid);
  liveGroups.clear();
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAllBotProcesses);
}

/** How a process ended: "exited with code 3" / "killed by signal SIGKILL". */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by signal ${signal}` : `exited with code ${code}`;
}

/** A spawned bot. */
export interface BotProcess {
  readonly child: ChildProcess;
  readonly pid: number | undefined;
  /** Resolves with a description once the process has exited (or failed to start). */
  readonly exited: Promise<string>;
  /** Set once exited: whether the exit was clean (code 0). */
  readonly exit: { readonly description: string; readonly clean: boolean } | undefined;
  /** The last lines of stderr, joined by newlines ('' if none). */
  stderrTail(): string;
  /** SIGKILLs the whole process group. Idempotent. */
  kill(): void;
}

/** Spawns `command args` detached (own process group) with the given extra environment. */
export function spawnBot(opts: {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env: Record<string, string>;
  readonly stdio: boolean;
}): BotProcess {
  hookExit();
  const child = spawn(opts.command, [...opts.args], {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    detached: true,
    // In WebSocket mode a bot's stdout is free for its own chatter; nobody reads it, so do not pipe it.
    stdio: opts.stdio ? ['pipe', 'pipe', 'pipe'] : ['ignore', 'ignore', 'pipe'],
  });
  const pid = child.pid;
  if (pid !== undefined) liveGroups.add(pid);

  const lines: string[] = [];
  let partial = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    const parts = (partial + text).split('\n');
    partial = parts.pop()!.slice(-LINE_CAP);
    for (const l of parts) lines.push(l.slice(0, LINE_CAP));
    if (lines.length > TAIL_LINES) lines.splice(0, lines.length - TAIL_LINES);
  });
  child.stderr?.on('error', () => undefined);

  let exit: { description: string; clean: boolean } | undefined;
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { description: describeExit(code, signal), clean: code === 0 };
      resolve(exit.description);
    });
    child.once('error', (err) => {
      // Spawn failures (ENOENT, EACCES) emit 'error' and possibly never 'exit'.
      exit ??= { description: `could not start: ${err.message}`, clean: false };
      resolve(exit.description);
    });
  });

  return {
    child,
    pid,
    exited,
    get exit() {
      return exit;
    },
    stderrTail: () => [...lines, ...(partial ? [partial] : [])].slice(-TAIL_LINES).join('\n').trimEnd(),
    kill() {
      if (pid === undefined) return;
      killGroup(pid);
      liveGroups.delete(pid);
    },
  };
}
