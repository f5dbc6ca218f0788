import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { ROOT, spawnArena, waitFor } from './helpers.ts';

// Issue 10 end to end: real SQLite files, the real CLI spawned, real bots. After a match: list it, show it,
// replay it, export it; the numbers agree across all of them; tampering is caught; the printed resume
// command works as printed; bad input is one line and a non-zero exit.

const arena = async (args: string[]) => spawnArena(args, {}).done;

/** The one line every bad input must give: "arena: ..." on stderr, nothing else, non-zero exit. */
async function expectOneLineError(args: string[], pattern: RegExp): Promise<void> {
  const r = await arena(args);
  expect(r.code, `${args.join(' ')}: ${r.stdout}`).not.toBe(0);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, args.join(' ')).toHaveLength(1);
  expect(lines[0]).toMatch(/^arena: /);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

function freshDir(): string {
  return mkdtempSync(join(tmpdir(), 'arena-records-'));
}

describe('records e2e - list, show, replay and export a real match', () => {
  const dir = freshDir();
  const db = join(dir, 'arena.db');
  // Two optimal 3x3 bots: equal moves everywhere, so the winners are decided by time or drawn.
  const MATCH = ['match', 'backtracking', 'reference-bfs', '--puzzle', 'sliding', '--size', '3', '--count', '6', '--seed', '77', '--db', db];
  let matchJson: any;

  it('match --json and show --json print the same document; matches lists it with its progress and standing', { timeout: 180_000 }, async () => {
    const run = await arena([...MATCH, '--json']);
    expect(run.code, run.stderr).toBe(0);
    matchJson = JSON.parse(run.stdout);
    expect(run.stderr).toMatch(new RegExp(`^match ${matchJson.match.id}: 6 scrambles × 2 bots, seed 77; results in ${db.replaceAll('.', '\\.')}`, 'm'));
    expect(matchJson.scrambles).toHaveLength(6);
    expect(matchJson.scrambles.every((s: any) => s.optimal !== undefined && s.winner !== undefined)).toBe(true);

    const shown = await arena(['show', String(matchJson.match.id), '--json', '--db', db]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(matchJson);

    const listed = await arena(['matches', '--json', '--db', db, '--bot', 'reference-bfs', '--puzzle', 'sliding', '--status', 'finished']);
    expect(listed.code, listed.stderr).toBe(0);
    const [m] = JSON.parse(listed.stdout);
    expect(m).toMatchObject({ id: matchJson.match.id, status: 'finished', seed: '77', scrambles: 6, scramblesDone: 6, plays: 12, puzzleClasses: ['sliding 3x3'] });
    const pair = matchJson.summary.pairs[0];
    expect(m.pairs).toEqual([{ a: 'backtracking', b: 'reference-bfs', wins: pair.wins, draws: pair.draws, losses: pair.losses, leader: expect.anything() }].map((p) => ({ ...p, leader: pair.wins > pair.losses ? 'backtracking' : pair.losses > pair.wins ? 'reference-bfs' : null })));
    const none = await arena(['matches', '--json', '--db', db, '--puzzle', 'hanoi']);
    expect(JSON.parse(none.stdout)).toEqual([]);
    const table = await arena(['show', String(matchJson.match.id), '--db', db]);
    expect(table.stdout).toMatch(/^#\s+best\s+backtracking\s+reference-bfs\s+winner$/m);
    expect(table.stdout).toContain('best: =n the exact optimum');
  });

  it('export: the CSV, read back with an independent parser, carries the numbers of show --json', async () => {
    const out = join(dir, 'results.csv');
    const r = await arena(['export', String(matchJson.match.id), '--out', out, '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    const rows: Record<string, string>[] = parse(readFileSync(out, 'utf8'), { columns: true });
    expect(rows).toHaveLength(matchJson.results.length);
    for (const x of matchJson.results) {
      const row = rows.find((y) => Number(y.scramble) === x.scramble && y.bot === x.bot)!;
      expect(row, `${x.scramble}/${x.bot}`).toBeDefined();
      expect(row.match).toBe(String(matchJson.match.id));
      expect(row.verdict).toBe(x.verdict);
      expect(Number(row.moves)).toBe(x.moves);
      expect(Number(row.wall_ms)).toBe(x.timeMs);
      // Spawned bots: CPU time measured (Linux) and exported as show --json has it.
      if (process.platform === 'linux' && x.verdict === 'solved') expect(x.cpuMs, `${x.scramble}/${x.bot}`).toBeTypeOf('number');
      expect(row.cpu_ms).toBe(x.cpuMs === undefined ? '' : String(x.cpuMs));
      expect(Number(row.optimal)).toBe(x.optimal);
      expect(Number(row.lower_bound)).toBe(x.lowerBound);
      expect(Number(row.gap)).toBe(x.moves - x.optimal);
      expect(row.claimed_optimal).toBe(x.claimedOptimal === undefined ? '' : String(x.claimedOptimal));
      expect(row.nodes).toBe(x.nodes === undefined ? '' : String(x.nodes));
      expect(row.reported_ms).toBe(x.reportedMs === undefined ? '' : String(x.reportedMs));
    }
    const jsonl = await arena(['export', '--all', '--format', 'jsonl', '--with-moves', '--db', db]);
    const lines = jsonl.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(12);
    expect(lines.every((l) => typeof l.solution === 'string' && l.solution.length === l.moves)).toBe(true);
  });

  it('replay re-validates stored moves, side by side, and reports moves tampered with in the file', async () => {
    const id = String(matchJson.match.id);
    const both = await arena(['replay', id, '2', 'backtracking', '--bot2', 'reference-bfs', '--db', db]);
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toMatch(/backtracking · start \(\d+ moves\)\s+reference-bfs · start/);
    expect(both.stdout).toMatch(/^backtracking: re-validated: solved in \d+ moves, as recorded$/m);
    expect(both.stdout).toMatch(/^reference-bfs: re-validated: solved in \d+ moves, as recorded$/m);

    const frames = await arena(['replay', id, '2', 'reference-bfs', '--json', '--db', db]);
    const records = frames.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const moves = matchJson.results.find((x: any) => x.scramble === 2 && x.bot === 'reference-bfs').moves;
    expect(records).toHaveLength(moves + 2);
    expect(records.at(-1)).toMatchObject({ bot: 'reference-bfs', check: { ok: true, verdict: 'solved', moves } });
    expect(records.at(-2).state.tiles).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 0]);

    // Tamper with the stored answer: drop its last move. The replay must notice.
    const file = new Database(db);
    file.prepare(`UPDATE results SET moves = substr(moves, 1, length(moves) - 1)
                  WHERE bot = 'reference-bfs' AND scramble_id = (SELECT id FROM scrambles WHERE match_id = ? AND idx = 1)`).run(matchJson.match.id);
    file.close();
    const tampered = await arena(['replay', id, '2', 'reference-bfs', '--db', db]);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toMatch(/^reference-bfs: MISMATCH: recorded solved in \d+ moves, but the stored moves are not solved: not solved after the last move$/m);
  });

  it('bad input is one clear line and a non-zero exit', async () => {
    const id = String(matchJson.match.id);
    await expectOneLineError(['show', '999', '--db', db], /no match with id 999/);
    await expectOneLineError(['replay', '999', '1', '--db', db], /no match with id 999/);
    await expectOneLineError(['replay', id, '7', '--db', db], /has scrambles 1 to 6, not 7/);
    await expectOneLineError(['replay', id, '1', 'ida-star', '--db', db], /bot "ida-star" is not in match/);
    await expectOneLineError(['export', '999', '--db', db], /no match with id 999/);
    await expectOneLineError(['export', id, '--out', join(dir, 'no-such-dir', 'x.csv'), '--db', db], /cannot write .*x\.csv/);
    await expectOneLineError(['export', id, '--format', 'xml', '--db', db], /--format must be csv or jsonl, got "xml"/);
    await expectOneLineError(['leaderboard', '--format', 'xml', '--db', db], /--format must be table, csv or json/);
    await expectOneLineError(['show', 'abc', '--db', db], /a match id is a whole number/);
  });

  it('bot remove --purge deletes the results of the name and its variants, after confirmation', async () => {
    const refused = await arena(['bot', 'remove', 'backtracking', '--purge', '--db', db]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/add --yes to confirm/);
    const purged = await arena(['bot', 'remove', 'backtracking', '--purge', '--yes', '--db', db]);
    expect(purged.code, purged.stderr).toBe(0);
    expect(purged.stdout).toMatch(/deleted 6 result\(s\) in 1 match/);
    const csv = await arena(['export', '--all', '--db', db]);
    const rows: Record<string, string>[] = parse(csv.stdout, { columns: true });
    expect(rows.map((r) => r.bot)).toEqual(Array(6).fill('reference-bfs'));
  });
});

describe('records e2e - the exact 4x4 optimum and the resume hint', () => {
  it('a 4x4 match reports the exact optimum, so optimal answers count as optimal', { timeout: 180_000 }, async () => {
    const db = join(freshDir(), 'arena.db');
    const run = await arena(['match', 'ida-star', '--puzzle', 'sliding', '--size', '4', '--count', '2', '--seed', '3', '--db', db, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.scrambles.every((s: any) => s.optimal !== undefined && s.boundNote === undefined)).toBe(true);
    expect(report.summary.bots['ida-star'].optimalSolves).toBe(2);
    expect(report.summary.bots['ida-star'].meanGap).toBe(0);
    expect(report.results.every((r: any) => r.claimedOptimal === true && r.nodes > 0 && r.claimContradicted === undefined)).toBe(true);
  });

  it('the printed resume command, run exactly as printed from another directory, finishes the match', { timeout: 180_000 }, async () => {
    const dir = freshDir();
    const db = join(dir, 'arena.db');
    const loader = pathToFileURL(tsxLoaderPath(ROOT)!).href;
    for (const bot of ['instant', 'silent']) {
      const cmd = `"${process.execPath}" --import ${loader} "${join(ROOT, 'test/fixtures/bots', `${bot}.ts`)}"`;
      expect((await arena(['bot', 'add', bot, '--cmd', cmd, '--db', db])).code).toBe(0);
    }
    const run = spawnArena(['match', 'instant', 'silent', '--puzzle', 'sliding', '--size', '2', '--count', '4', '--seed', '5', '--time-limit', '700ms', '--db', db], {});
    const store = () => {
      const d = new Database(db, { readonly: true });
      try {
        return (d.prepare('SELECT count(*) AS n FROM results').get() as { n: number }).n;
      } finally {
        d.close();
      }
    };
    expect(await waitFor(() => store() >= 2, 60_000)).toBe(true);
    run.child.kill('SIGINT');
    const stopped = await run.done;
    expect(stopped.code).toBe(130);
    const hint = /finish it with: (arena match --resume \d+ .*)$/m.exec(stopped.stdout);
    expect(hint, stopped.stdout).not.toBeNull();
    expect(hint![1]).toContain(`--db ${db}`);
    // Exactly as printed, through a shell, with `arena` the project's bin, from a directory without a database.
    const elsewhere = freshDir();
    const shell = spawn('sh', ['-c', hint![1].replace(/^arena /, `"${process.execPath}" "${join(ROOT, 'bin/arena.js')}" `)], { cwd: elsewhere, env: { ...process.env, ARENA_DB: '' } });
    let out = '';
    let err = '';
    shell.stdout.on('data', (d) => (out += d));
    shell.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((res) => shell.on('close', res));
    expect(code, err).toBe(0);
    expect(out).toMatch(/· finished/);
    expect(store()).toBe(8);
  });
});
