import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { ROOT, spawnArena } from './helpers.ts';

let db = '';

async function arena(args: string[]) {
  return spawnArena([...args, '--db', db], {}).done;
}

/** The verdicts and reasons of the newest match, from the real CLI's JSON Lines export. */
async function lastResults(match: number): Promise<{ verdict: string; error: string | null }[]> {
  const r = await arena(['export', String(match), '--format', 'jsonl']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { verdict: string; error: string | null });
}

describe('a stdio bot that closes its stdout mid-answer', () => {
  beforeAll(async () => {
    db = join(mkdtempSync(join(tmpdir(), 'arena-stdout-closed-')), 'closed.db');
    const loader = pathToFileURL(tsxLoaderPath(ROOT)!).href;
    const cmd = `"${process.execPath}" --import ${loader} "${join(ROOT, 'test/fixtures/bots/stdout-closer.ts')}"`;
    const r = await arena(['bot', 'add', 'closer', '--stdio', '--cmd', cmd]);
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  // The time limit is far above what a crash takes: a `timeout` verdict is the bug (bwrap's own processes
  // held the pipe open, so the referee never saw the end of the bot's stdout).
  for (const [label, flags, match] of [['confined', [], 1], ['unconfined', ['--no-sandbox'], 2]] as const) {
    it(`stdio link - a ${label} bot that closes its stdout gets crash, not timeout`, async () => {
      const r = await arena(['match', 'closer', '--puzzle', 'sliding', '--size', '2', '--count', '2', '--seed', '3', '--time-limit', '60s', '--no-warm-up', ...flags]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const results = await lastResults(match);
      expect(results).toHaveLength(2);
      for (const x of results) {
        expect(x.verdict).toBe('crash');
        expect(x.error).toMatch(/bot closed its stdout/);
      }
    }, 120_000);
  }
});
