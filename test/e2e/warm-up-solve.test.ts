import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { arena, resultsOf, ROOT, tempFolder } from '../helpers/bot-folders.ts';

// The referee's untimed warm-up solve, through the real CLI with a real bot process: `slow-first` sleeps 3 s
// on the first solve of its process (a cold start) and answers every later one at once. Under a 1 s limit
// the cold start costs the first timed scramble unless the warm-up took it.

async function play(extra: string[]): Promise<{ verdicts: string[]; db: string; id: number }> {
  const db = join(tempFolder('warm-up-solve'), 'arena.db');
  const cmd = `${process.execPath} --import ${pathToFileURL(tsxLoaderPath(ROOT)!).href} ${join(ROOT, 'test/fixtures/bots/slow-first.ts')}`;
  expect((await arena(['bot', 'add', 'slow-first', '--cmd', cmd, '--stdio'], db)).code).toBe(0);
  const r = await arena(['match', 'slow-first', '--puzzle', 'sliding', '--size', '2', '--count', '3', '--seed', '4', '--time-limit', '1s', '--json', ...extra], db);
  expect(r.code, r.stderr).toBe(0);
  const doc = JSON.parse(r.stdout) as { match: { id: number } };
  return { verdicts: resultsOf(r.stdout).sort((a, b) => a.scramble - b.scramble).map((x) => x.verdict), db, id: doc.match.id };
}

describe('warm-up-solve e2e - a cold start no longer decides the first timed scramble', () => {
  it('warm-up - on by default: the cold start goes into the untimed warm-up, every scramble is solved, and only the timed ones are stored', async () => {
    const { verdicts, db, id } = await play([]);
    expect(verdicts).toEqual(['solved', 'solved', 'solved']);
    const exported = await arena(['export', String(id), '--format', 'jsonl'], db);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.trim().split('\n')).toHaveLength(3); // the warm-up's answer is no result
  });

  it('warm-up - with --no-warm-up the first timed scramble carries the cold start and times out, and so does each restart', async () => {
    const { verdicts } = await play(['--no-warm-up']);
    // A time-out restarts the bot, and the new process is cold again: without the warm-up it never recovers.
    expect(verdicts).toEqual(['timeout', 'timeout', 'timeout']);
  });
});
