import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnArena } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'arena-cli-'));
const env = { ARENA_DB: join(dir, 'cli.db') };
const garbageDb = join(dir, 'garbage.db');
writeFileSync(garbageDb, 'this is not a database, just text that is long enough to look like a header.....');
const s2 = (tiles: number[]) => JSON.stringify({ kind: 'sliding', rows: 2, cols: 2, tiles });

// Each bad input: a one-line "arena: ..." message naming the problem, a non-zero exit, never a stack trace.
const CASES: Array<[string, string[], RegExp]> = [
  ['unknown kind', ['scramble', 'cube'], /unknown puzzle kind "cube"/],
  ['size out of range', ['scramble', 'sliding', '--size', '1'], /from 2 to 1000/],
  ['too many discs', ['scramble', 'hanoi', '--discs', '30'], /from 2 to 24/],
  ['warehouse not a square', ['scramble', 'warehouse', '--size', '5'], /perfect square/],
  ['malformed JSON', ['verify', '--scramble', '{bad', '--moves', 'U'], /not valid JSON/],
  ['duplicate tile', ['verify', '--scramble', s2([1, 2, 3, 3]), '--moves', 'U'], /duplicate/],
  ['wrong length', ['verify', '--scramble', s2([1, 2, 0]), '--moves', 'U'], /expected 4 tiles/],
  ['unsolvable parity', ['verify', '--scramble', s2([2, 1, 3, 0]), '--moves', 'U'], /unsolvable/],
  ['unknown peg', ['verify', '--scramble', '{"kind":"hanoi","pegs":3,"start":"AAD","goal":"CCC"}', '--moves', 'AC'], /peg letter "D"/],
  ['bad move letter', ['verify', '--scramble', s2([1, 2, 0, 3]), '--moves', 'RX'], /unknown move letter 'X'/],
  ['unknown bot', ['match', 'nosuchbot'], /unknown bot "nosuchbot"/],
  ['bad duration', ['match', 'reference-bfs', '--time-limit', '3x'], /duration/],
  ['no such match', ['match', '--resume', '999'], /no match with id 999/],
  ['garbage database', ['leaderboard', '--db', garbageDb], /cannot open database .*not/],
  ['bot add without --cmd', ['bot', 'add', 'x'], /--cmd/],
  ['unknown option', ['scramble', 'sliding', '--sise', '3'], /unknown option/],
];

describe('cli - bad input', () => {
  it.each(CASES)('%s: one clear line, non-zero exit, no stack trace', async (_name, args, message) => {
    const r = await spawnArena(args, env).done;
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).not.toMatch(/internal error/);
  });

  it('an illegal move is a verdict with its index, exit 1', async () => {
    const r = await spawnArena(['verify', '--scramble', s2([1, 2, 0, 3]), '--moves', 'RRL', '--json'], env).done;
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: 'invalid', index: 1, moves: 1, optimal: 1 });
  });
});
