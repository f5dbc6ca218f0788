import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { ROOT, spawnArena } from './helpers.ts';

// A careless (or hostile) user at the command line: every bad number, name, path or address gets one
// clear line and a non-zero exit before anything runs; a match never starts on a bad setting.

const dir = mkdtempSync(join(tmpdir(), 'arena-hostile-cli-'));
const env = { ARENA_DB: join(dir, 'hostile.db') };
// A preset that spells its time limit as a bare number, as an older preset might.
writeFileSync(join(dir, 'bare.json'), JSON.stringify({ bots: ['reference-bfs'], puzzle: 'sliding', size: 2, timeLimit: 30 }));
const MATCH = ['match', 'reference-bfs', '--puzzle', 'sliding', '--size', '2', '--count', '2'];

const REFUSED: Array<[string, string[], RegExp]> = [
  ['time limit at 2^31 ms', [...MATCH, '--time-limit', '2147483648ms'], /--time-limit must be from 1 ms to 86400000 ms/],
  ['time limit without a unit', [...MATCH, '--time-limit', '10'], /^arena: --time-limit needs a unit \(ms, s, m or h\), got "10": did you mean 10s\?$/m],
  ['time limit without a unit, either reading as likely', [...MATCH, '--time-limit', '300'], /did you mean 300s or 300ms\?/],
  ['margin without a unit', [...MATCH, '--margin', '5'], /--margin needs a unit .*did you mean 5ms\?/],
  ['memory limit without a unit', [...MATCH, '--memory-limit', '512'], /^arena: --memory-limit needs a unit \(k, m, g or t\), got "512": did you mean 512m\?$/m],
  ['bot check time limit without a unit', ['bot', 'check', 'reference-bfs', '--time-limit', '10'], /--time-limit needs a unit .*did you mean 10s\?/],
  ['worker heartbeat without a unit', ['worker', '--heartbeat', '5', '--db', 'postgres://nobody@127.0.0.1:1/x'], /--heartbeat needs a unit .*did you mean 5s\?/],
  ['preset time limit without a unit', ['match', '--preset', join(dir, 'bare.json')], /"timeLimit" needs a unit \(ms, s, m or h\), got "30": did you mean 30s\?/],
  ['time limit of a day and a second', [...MATCH, '--time-limit', '86401s'], /--time-limit must be from 1 ms/],
  ['time limit rounding to 0 ms', [...MATCH, '--time-limit', '0.2ms'], /--time-limit must be from 1 ms/],
  ['max moves 1e400', [...MATCH, '--max-moves', '1e400'], /--max-moves must be a whole number from 1 to 1000000000, got "1e400"/],
  ['max moves past a billion', [...MATCH, '--max-moves', '1000000001'], /--max-moves must be a whole number from 1 to 1000000000/],
  ['max moves 0', [...MATCH, '--max-moves', '0'], /--max-moves must be a whole number from 1/],
  ['concurrency 1000', [...MATCH, '--concurrency', '1000'], /--concurrency must be a whole number from 1 to 64/],
  ['count 1e9', [...MATCH, '--count', '1e9'], /--count must be a whole number from 1 to 1000000, got "1e9"/],
  ['count past a million', [...MATCH, '--count', '1000001'], /--count must be a whole number from 1 to 1000000/],
  ['count 0', [...MATCH, '--count', '0'], /--count must be a whole number from 1/],
  ['walk not whole', [...MATCH, '--walk', '1.5'], /--walk must be a whole number from 0 to 100000000/],
  ['empty seed', [...MATCH, '--seed', ''], /--seed must not be empty/],
  ['blank seed', [...MATCH, '--seed', '   '], /--seed must not be empty/],
  ['seed of 201 characters', [...MATCH, '--seed', 'x'.repeat(201)], /--seed must be at most 200 characters/],
  ['size 1001', ['match', 'reference-bfs', '--size', '1001'], /from 2 to 1000/],
  ['size of 20 digits', ['match', 'reference-bfs', '--size', '99999999999999999999'], /size must be an integer from 2 to 1000/],
  ['size not a number', ['match', 'reference-bfs', '--size', 'big'], /--size must be a whole number, got "big"/],
  // One range message per flag, whatever side of the range the value misses it on.
  ['size 0', ['match', 'reference-bfs', '--size', '0'], /^arena: bad sliding size: size must be an integer from 2 to 1000, got 0$/m],
  ['size 1', ['match', 'reference-bfs', '--size', '1'], /^arena: bad sliding size: size must be an integer from 2 to 1000, got 1$/m],
  ['discs 0', ['match', 'hanoi-recursive', '--puzzle', 'hanoi', '--discs', '0'], /^arena: bad hanoi size: hanoi "discs" must be an integer from 2 to 24, got 0$/m],
  ['margin past a day', [...MATCH, '--margin', '90000s'], /--margin must be from 0 ms/],
  ['missing scrambles file', ['match', 'reference-bfs', '--scrambles', join(dir, 'nope.jsonl')], /nope\.jsonl: no such file/],
  ['scrambles path is a directory', ['match', 'reference-bfs', '--scrambles', dir], /is a directory/],
  ['scramble count 1e9', ['scramble', 'sliding', '--count', '1e9'], /--count must be a whole number from 1 to 1000000/],
  ['listen port out of range', [...MATCH, '--listen', '127.0.0.1:70000'], /--listen port 70000 is out of range/],
  ['listen without a port', [...MATCH, '--listen', 'example.org'], /--listen must be host:port/],
  ['show an unknown match', ['show', '999'], /no match with id 999/],
  ['matches limit 0', ['matches', '--limit', '0'], /--limit must be a whole number from 1/],
  ['resume id not a number', ['match', '--resume', 'abc'], /--resume must be a whole number/],
  ['look-alike of a built-in (case)', ['bot', 'add', 'Dijkstra', '--cmd', 'node x.js'], /"Dijkstra" is too easily confused with the built-in bot "dijkstra"/],
  ['look-alike of a built-in (trailing dot)', ['bot', 'add', 'dijkstra.', '--remote'], /confused with the built-in bot "dijkstra"/],
  ['look-alike of a built-in (remote, capitals)', ['bot', 'add', 'DIJKSTRA', '--remote'], /confused with the built-in bot "dijkstra"/],
  ['look-alike by digits', ['bot', 'add', 'c0nstructive', '--remote'], /confused with the built-in bot "constructive"/],
  ['name outside the character set', ['bot', 'add', 'my bot', '--remote'], /bad bot name "my bot"/],
  ['missing --cwd', ['bot', 'add', 'somebot', '--cmd', 'node x.js', '--cwd', '/nonexistent/dir'], /--cwd \/nonexistent\/dir: no such directory/],
  ['program not on PATH', ['bot', 'add', 'somebot', '--cmd', 'no-such-program-zz --fast'], /no program "no-such-program-zz" on PATH/],
  ['program file missing', ['bot', 'add', 'somebot', '--cmd', './missing.sh', '--cwd', dir], /missing\.sh is not an executable file/],
  ['unterminated quote in --cmd', ['bot', 'add', 'somebot', '--cmd', 'node "x.js'], /unterminated " quote/],
];

async function expectRefused(args: string[], message: RegExp): Promise<void> {
  const r = await spawnArena(args, env).done;
  expect(r.code, r.stdout).not.toBe(0);
  expect(r.stderr).toMatch(message);
  expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('hostile cli - refused up front', () => {
  it.each(REFUSED)('%s: one line, non-zero exit', async (_name, args, message) => {
    await expectRefused(args, message);
  });

  it('hostile cli - nothing refused left a match or a bot behind', async () => {
    const db = new Database(env.ARENA_DB, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM matches').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT count(*) AS n FROM bots').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

describe('hostile cli - during and after a match', () => {
  it('hostile cli - listening beyond loopback warns who can connect and how they get in', async () => {
    const r = await spawnArena([...MATCH, '--seed', '3', '--listen', '0.0.0.0:0', '--json'], env).done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: listening on ws:\/\/0\.0\.0\.0:\d+\/ .*reachable from other machines: anyone who can reach this port can connect/);
    expect(r.stderr).toMatch(/only the bots the referee spawns itself get in \(each with a one-time token\)/);
    const quiet = await spawnArena([...MATCH, '--seed', '3', '--listen', '127.0.0.1:0', '--json'], env).done;
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toMatch(/warning/);
  });

  it('hostile cli - a bot that fails to start twice is not started again; the report says so once', async () => {
    const db = join(dir, 'broken.db');
    const loader = pathToFileURL(tsxLoaderPath(ROOT)!).href;
    // node itself resolves, so registration accepts it; the script does not exist, so every start fails.
    // Its folder is its own (a registered bot's folder cannot be the checkout the CLI runs from).
    const add = await spawnArena(['bot', 'add', 'broken', '--cmd', `"${process.execPath}" --import ${loader} ${join(dir, 'gone.ts')}`, '--cwd', mkdtempSync(join(tmpdir(), 'arena-broken-')), '--db', db], {}).done;
    expect(add.code, add.stderr).toBe(0);
    const r = await spawnArena(['match', 'broken', 'reference-bfs', '--size', '2', '--count', '5', '--seed', '9', '--db', db], {}).done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/failed to start twice in a row/g)).toHaveLength(1);
    expect(r.stdout).toMatch(/broken failed to start twice in a row and was not started again: 3 scramble\(s\) charged crash without a start/);
    const rows = new Database(db, { readonly: true })
      .prepare(`SELECT r.verdict, r.error FROM results r JOIN scrambles s ON s.id = r.scramble_id WHERE r.bot = 'broken' ORDER BY s.idx`)
      .all() as Array<{ verdict: string; error: string }>;
    expect(rows.map((x) => x.verdict)).toEqual(Array(5).fill('crash'));
    expect(rows.filter((x) => x.error.startsWith('could not start'))).toHaveLength(2);
    expect(rows.filter((x) => x.error.startsWith('not started again'))).toHaveLength(3);
  });

  /** Plays a short match into a fresh file, then lets `tamper` change its rows (as raw SQL); returns the id. */
  async function tamperedMatch(file: string, tamper: (raw: Database.Database, id: number) => void): Promise<{ db: string; id: number }> {
    const db = join(dir, file);
    const first = await spawnArena(['match', 'reference-bfs', '--size', '2', '--count', '2', '--seed', '4', '--db', db, '--json'], {}).done;
    expect(first.code, first.stderr).toBe(0);
    const id = JSON.parse(first.stdout).match.id as number;
    const raw = new Database(db);
    try {
      raw.prepare(`UPDATE matches SET status = 'interrupted' WHERE id = ?`).run(id);
      tamper(raw, id);
    } finally {
      raw.close();
    }
    return { db, id };
  }

  it('hostile cli - resuming a match that has no scrambles is a clear error, not an empty finish', async () => {
    // What an older version left when killed between creating a match and storing its scrambles.
    const { db, id } = await tamperedMatch('empty.db', (raw, m) => raw.prepare('DELETE FROM scrambles WHERE match_id = ?').run(m));
    await expectRefused(['match', '--resume', String(id), '--db', db], new RegExp(`match ${id} has no scrambles stored`));
  });

  it('hostile cli - a stored config outside the limits is refused on resume, not cast and run', async () => {
    const { db, id } = await tamperedMatch('config.db', (raw, m) =>
      raw.prepare(`UPDATE matches SET config = json_set(config, '$.timeLimitMs', 2147483648) WHERE id = ?`).run(m),
    );
    await expectRefused(['match', '--resume', String(id), '--db', db], /cannot be resumed: match config: timeLimitMs/);
  });
});
