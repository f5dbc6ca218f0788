import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, spawnArena } from './helpers.ts';

// `arena replay … | head`: the reader takes a few lines and closes the pipe. Every command that can print
// more than a pipe holds must then stop quietly: no EPIPE stack trace, the exit code it had decided.

/** Runs the real CLI, reads its stdout until `bytes` arrived, then closes the pipe as `head` does. */
function readThenClose(args: string[], bytes: number): Promise<{ code: number | null; signal: string | null; got: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/arena.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let got = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    got += d.toString();
    if (got.length >= bytes) child.stdout.destroy();
  });
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((res) => child.on('close', (code, signal) => res({ code, signal, got, stderr })));
}

describe('cli - a closed stdout ends the output quietly', () => {
  let dir: string;
  let db: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-pipe-'));
    db = join(dir, 'pipe.db');
    // A 14-disc tower: 16,383 moves, so --frames prints far more than a pipe's 64 KiB buffer.
    const r = await spawnArena(['match', 'hanoi-recursive', '--puzzle', 'hanoi', '--discs', '14', '--count', '1', '--seed', '3', '--quiet', '--db', db], {}).done;
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['replay --frames', ['replay', '1', '1', '--frames']],
    ['replay --json', ['replay', '1', '1', '--json']],
    ['export --with-moves', ['export', '1', '--with-moves', '--format', 'jsonl']],
    ['scramble', ['scramble', 'sliding', '--size', '10', '--count', '20000']],
  ])('%s | head: exit 0, nothing on stderr', async (_name, args) => {
    const withDb = args[0] === 'scramble' ? args : [...args, '--db', db];
    const r = await readThenClose(withDb, 100);
    expect(r.got.length).toBeGreaterThanOrEqual(100);
    expect(r.stderr).not.toMatch(/EPIPE|\n\s+at |internal error/);
    expect(r.stderr.replace(/^\(.*moves: one frame every.*\)\n/m, '')).toBe('');
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
  }, 60_000);
});
