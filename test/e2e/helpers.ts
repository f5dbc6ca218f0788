import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { pathToFileURL } from 'node:url';
import type { BotLauncher } from '../../src/protocol/link.ts';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { createProcessLauncher } from '../../src/transport/process/process-launcher.ts';
import type { ArenaServer } from '../../src/transport/ws-server.ts';
import { confinedIfAble, fixtureEntry } from '../helpers/sandbox.ts';

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '../..');

/** A launcher for a fixture bot under test/fixtures/bots (spawned through tsx, like a built-in bot, in the sandbox). */
export function fixtureLauncher(name: string, server: ArenaServer): BotLauncher {
  return createProcessLauncher({
    name,
    command: process.execPath,
    args: ['--import', pathToFileURL(tsxLoaderPath(ROOT)!).href, join(ROOT, 'test/fixtures/bots', `${name}.ts`)],
    server,
    startTimeoutMs: 30_000,
    ...confinedIfAble(fixtureEntry(name)),
  });
}

/** Spawns the real CLI (`node bin/arena.js ...`) with extra env; collects its output. */
export function spawnArena(args: string[], env: Record<string, string>): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [join(ROOT, 'bin/arena.js'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((res) =>
    child.on('close', (code, signal) => res({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/** Polls `pred` every 50 ms until it holds or `ms` pass. */
export async function waitFor(pred: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await pred()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return pred();
}

/**
 * For one describe block: `arena` spawns the real CLI as {@link spawnArena} does, and every process still
 * running after a test is SIGKILLed; `tempDir` makes a folder removed once the block is done.
 */
export function arenaRuns(): { arena(args: string[]): ReturnType<typeof spawnArena>; tempDir(prefix: string): string } {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  afterAll(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return {
    arena(args) {
      const run = spawnArena(args, {});
      children.push(run.child);
      return run;
    },
    tempDir(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
  };
}
