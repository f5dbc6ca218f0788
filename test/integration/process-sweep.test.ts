/**
 * The kill of a bot reaches everything it started: real processes that leave the bot's process group and
 * session (setsid), that clear their environment (env -i), and whole trees; the process watch attributes
 * them and stops a bot at its limits. Linux only (/proc).
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveLimits } from '../../src/transport/process/bot-limits.ts';
import { spawnBot as spawn } from '../../src/transport/process/bot-process.ts';
import type { BotProcess, SpawnBotOptions } from '../../src/transport/process/bot-process.ts';
import { readStat } from '../../src/transport/process/proc-fs.ts';
import { checkNow } from '../../src/transport/process/process-watch.ts';

const MiB = 1024 * 1024;

function alive(pid: number): boolean {
  const st = readStat(pid);
  return st !== undefined && st.state !== 'Z';
}

async function until(pred: () => boolean, ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (pred()) return true;
  return pred();
}

const pids = (file: string): number[] => (existsSync(file) ? readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number) : []);

// Whatever a failing test leaves behind is killed all the same.
const started: Array<{ proc: BotProcess; out?: string }> = [];
afterEach(() => {
  for (const { proc, out } of started.splice(0)) {
    proc.kill();
    for (const pid of out ? pids(out) : []) if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
});
function spawnBot(opts: SpawnBotOptions): BotProcess {
  const proc = spawn(opts);
  started.push({ proc, ...(opts.env.OUT ? { out: opts.env.OUT } : {}) });
  return proc;
}

describe.runIf(process.platform === 'linux')('bot process - kill and watch', () => {
  it('kills a setsid daemon, a child with a cleared environment and the bot itself, and frees the pipes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-sweep-'));
    const out = join(dir, 'pids');
    // The daemon holds the bot's stderr pipe; the env -i child is known to the watch only by parentage.
    const script = `setsid sh -c 'sleep 300 & echo $! >> "$OUT"'; setsid env -i /bin/sleep 300 & echo $! >> "$OUT"; echo ready >&2; exec sleep 300`;
    const proc = spawnBot({ command: 'sh', args: ['-c', script], env: { OUT: out }, stdio: false, limits: resolveLimits({ memoryBytes: 256 * MiB }) });
    expect(await until(() => pids(out).length === 2)).toBe(true);
    const [daemon, hidden] = pids(out);
    // Its own session and group: the group kill cannot reach it.
    expect([readStat(daemon)!.sid, readStat(daemon)!.pgid]).not.toContain(proc.pid);
    // Once through setsid and env -i: no tag to find it by, nor a group (wait: $! is known before they run).
    expect(await until(() => readFileSync(`/proc/${hidden}/environ`).length === 0 && readStat(hidden)!.sid !== proc.pid)).toBe(true);
    checkNow();
    proc.kill();
    expect(await until(() => ![proc.pid!, daemon, hidden].some(alive))).toBe(true);
    expect(await proc.exited).toBe('killed by signal SIGKILL');
    expect(proc.child.stderr!.destroyed).toBe(true);
  });

  it('stops a bot whose processes together hold more than its memory limit, each under it', async () => {
    const script = `for i in 1 2 3; do node -e 'const b = Buffer.alloc(60 * 1024 * 1024, 1); setInterval(() => b[0]++, 1000)' & done; wait`;
    const proc = spawnBot({ command: 'sh', args: ['-c', script], env: {}, stdio: false, limits: resolveLimits({ memoryBytes: 128 * MiB }) });
    await proc.exited;
    expect(proc.exit).toMatchObject({ verdict: 'memory' });
    expect(proc.exit!.description).toMatch(/^used \d+(\.\d)? MiB, over its memory limit of 128 MiB \(killed\)$/);
    expect(proc.peakMemoryBytes).toBeGreaterThan(128 * MiB);
  });

  it('stops a bot at its process limit and kills the whole tree', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-sweep-'));
    const out = join(dir, 'pids');
    const script = `for i in $(seq 1 40); do sleep 300 & echo $! >> "$OUT"; done; wait`;
    const proc = spawnBot({ command: 'sh', args: ['-c', script], env: { OUT: out }, stdio: false, limits: resolveLimits({ memoryBytes: 256 * MiB, maxProcesses: 20 }) });
    await proc.exited;
    expect(proc.exit).toMatchObject({ verdict: 'crash' });
    expect(proc.exit!.description).toMatch(/^had \d+ processes, over the limit of 20 \(killed\)$/);
    expect(await until(() => !pids(out).some(alive))).toBe(true);
  });

  it('reports a command that does not exist as a start failure, not as the shell wrapper exit code', async () => {
    const proc = spawnBot({ command: '/nonexistent/bot', args: [], env: {}, stdio: false, limits: resolveLimits() });
    expect(await proc.exited).toMatch(/could not start: .*ENOENT/);
  });
});
