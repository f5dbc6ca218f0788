/**
 * Issue 32's "Done when" on many machines: on PostgreSQL, alice submits a C bot whose manifest compiles it;
 * two real `arena worker`s, each with its own submissions folder (its own "machine"), run the build queue:
 * exactly one of them claims and builds it. That one then steps out, so the ladder (a real `arena ladder`,
 * checking the new version in its own folder through the same materialize path) places it with its games
 * played by the other worker, which never saw the version: it fetches it from the database, checks its hash
 * and builds it itself. Last, a block of the version is altered in the database, and a fresh worker asked
 * to play the bot refuses it with the reason, building nothing; a worker started with --no-builds leaves
 * the next submission to one that builds, whose log says the build failed and why.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addParticipant } from '../../src/app/participants/participants.ts';
import { submissionOf, submitArchive, type Caller } from '../../src/app/submissions/submissions.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';
import { archiveOf, botFolder, scratch } from '../helpers/submission-archives.ts';
import { ROOT, spawnArena, waitFor } from './helpers.ts';
import { reader } from './ladder-helpers.ts';

const alice: Caller = { name: 'alice', admin: false };
const FAST = ['--heartbeat', '1s', '--dead-after', '6s'];
/** One built-in opponent, few games: the new version is placed in well under a minute. */
const LADDER = [
  '--puzzle', 'sliding 3x3', '--bot', 'ida-star', '--scrambles', '4', '--min-games', '2', '--max-games', '4',
  '--target', '400', '--budget', '0', '--seed', 'pgwork', '--time-limit', '5s', '--poll', '300ms',
];

describe.skipIf(skipPgTests())('worker builds e2e - postgres with two workers', () => {
  let server: PgServer;
  const children: ReturnType<typeof spawnArena>[] = [];
  const saved = process.env.ARENA_SUBMISSIONS_DIR;
  beforeAll(async () => {
    server = await startPgServer();
  });
  afterAll(async () => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    if (saved === undefined) delete process.env.ARENA_SUBMISSIONS_DIR;
    else process.env.ARENA_SUBMISSIONS_DIR = saved;
    await server?.destroy();
  });
  /** A real `arena …` with its own submissions folder (its own machine), its stderr kept as log(). */
  const spawn = (args: string[], dir: string) => {
    const run = spawnArena(args, { ARENA_SUBMISSIONS_DIR: dir });
    let err = '';
    run.child.stderr!.on('data', (d) => (err += d));
    children.push(run);
    return { ...run, dir, log: () => err };
  };
  const folder = (name: string) => scratch(`pgwork-${name}`);

  it('workers - one worker builds the submission, the ladder places it on the other, which fetched, checked and built it; a tampered block is refused', { timeout: 300_000 }, async () => {
    const url = await server.createDatabase('workerbuilds');
    // This process receives the upload, as `arena serve --no-builds` would: it builds nothing.
    process.env.ARENA_SUBMISSIONS_DIR = folder('server');
    const ctx = await reader(url);
    const sql = new pg.Pool({ connectionString: url, max: 2 });
    sql.on('error', () => undefined);
    const workers = ['w1', 'w2'].map((name) => spawn(['worker', '--db', url, '--name', name, ...FAST], folder(name)));
    const ladder = spawn(['ladder', '--db', url, ...LADDER], folder('ladder'));
    const log = () => [ladder, ...workers].map((p) => `--- ${p.dir}\n${p.log()}`).join('\n');
    try {
      await addParticipant(ctx, { name: 'alice', admin: false });
      const source = botFolder(
        { name: 'cbot', run: './bot', build: 'gcc -O2 -o bot bot.c', transport: 'stdio' },
        { 'bot.c': readFileSync(join(ROOT, 'examples/c-bot/bot.c'), 'utf8') },
      );
      const sub = await submitArchive(ctx, alice, await archiveOf(source));
      if (!sub.ok) throw new Error(sub.reason);
      const version = sub.value.version!;
      const builtIn = (dir: string) => join(dir, 'built', version);

      // Built (and registered) by exactly one worker: the one whose log says so and whose folder holds it.
      const status = async () => {
        const s = await submissionOf(ctx, alice, sub.value.id);
        return s.ok ? s.value : undefined;
      };
      const registered = await waitFor(async () => ['checking', 'placing', 'placed', 'failed'].includes((await status())?.status ?? ''), 120_000);
      expect(registered, log()).toBe(true);
      expect((await status())?.status, `${JSON.stringify(await status())}\n${log()}`).not.toBe('failed');
      // The builder logs its line just after it set the status: wait for the line, then count who wrote it.
      const line = `submission ${sub.value.id} alice/cbot (version ${version.slice(0, 12)}): built here and registered`;
      expect(await waitFor(() => workers.some((w) => w.log().includes(line)), 10_000), log()).toBe(true);
      const builders = workers.filter((w) => w.log().includes(line));
      expect(builders.length, log()).toBe(1);
      const builder = builders[0]!;
      const other = workers.find((w) => w !== builder)!;
      expect(existsSync(join(builtIn(builder.dir), 'bot')), log()).toBe(true);
      expect((await ctx.store.getBot('alice/cbot'))?.cwd).toBe(builtIn(builder.dir));

      // The builder steps out (a clean stop hands back any job it took), so the other plays the placement.
      builder.child.kill('SIGINT');
      expect((await builder.done).code, log()).toBe(0);
      const placed = await waitFor(async () => ['placed', 'failed'].includes((await status())?.status ?? ''), 150_000);
      expect(placed, log()).toBe(true);
      expect((await status())?.status, `${JSON.stringify(await status())}\n${log()}`).toBe('placed');

      // The ladder checked it in its own folder; the other worker built it from the database and played it.
      expect(existsSync(join(builtIn(ladder.dir), 'bot')), log()).toBe(true);
      expect(existsSync(join(builtIn(other.dir), 'bot')), log()).toBe(true);
      expect(other.log()).not.toContain('built here and registered');
      const played = await sql.query(`SELECT worker, count(*)::int AS n FROM arena.results WHERE bot = 'alice/cbot' GROUP BY worker`);
      const byWorker = Object.fromEntries(played.rows.map((r) => [r.worker, r.n]));
      expect(byWorker[other.dir === workers[0]!.dir ? 'w1' : 'w2'], JSON.stringify(byWorker)).toBeGreaterThan(0);
      expect(Object.keys(byWorker).every((w) => w === 'w1' || w === 'w2'), JSON.stringify(byWorker)).toBe(true);
      const solved = await sql.query(`SELECT count(*)::int AS n FROM arena.results WHERE bot = 'alice/cbot' AND verdict = 'solved'`);
      expect(solved.rows[0].n).toBeGreaterThan(0);

      // Everything that holds a build stops; a block of the version is altered in the database.
      ladder.child.kill('SIGINT');
      other.child.kill('SIGINT');
      expect((await ladder.done).code, log()).toBe(0);
      expect((await other.done).code, log()).toBe(0);
      const altered = await sql.query(`UPDATE arena.version_blocks SET block = set_byte(block, 99, get_byte(block, 99) # 1) WHERE hash = $1 AND seq = 0`, [version]);
      expect(altered.rowCount).toBe(1);

      // A fresh worker asked to play the bot refuses it with the reason, and builds nothing. (The match is
      // queued from the ladder's machine, whose cached build is already there; a fresh folder refuses too.)
      const fresh = spawn(['worker', '--db', url, '--name', 'w3', '--no-builds', ...FAST], folder('w3'));
      const direct = await spawnArena(['match', 'alice/cbot', 'ida-star', '--size', '3', '--count', '1', '--db', url], { ARENA_SUBMISSIONS_DIR: folder('direct') }).done;
      expect(direct.code).toBe(1);
      expect(direct.stderr).toMatch(/^arena: bot alice\/cbot: version [0-9a-f]{12} as stored does not match its hash .*: refused\n$/);
      const match = spawn(['match', 'alice/cbot', 'ida-star', '--size', '3', '--count', '2', '--seed', 'tamper', '--db', url, '--distributed'], ladder.dir);
      const refused = await waitFor(() => fresh.log().includes('cannot start alice/cbot here'), 60_000);
      expect(refused, `${fresh.log()}\n--- match\n${match.log()}`).toBe(true);
      expect(fresh.log()).toMatch(/as stored does not match its hash .*refused/);
      expect(existsSync(builtIn(fresh.dir))).toBe(false);
      match.child.kill('SIGINT');

      // w3 runs with --no-builds: a new submission waits for a worker that builds. w4 takes it; its build
      // fails, and w4 says so with the reason, as the submission does.
      const broken = botFolder({ name: 'cbot', run: './bot', build: 'gcc -O2 -o bot missing.c', transport: 'stdio' }, { 'bot.c': 'int main(void) { return 0; }\n' });
      const second = await submitArchive(ctx, alice, await archiveOf(broken));
      if (!second.ok) throw new Error(second.reason);
      await new Promise((r) => setTimeout(r, 3000));
      expect(await submissionOf(ctx, alice, second.value.id)).toMatchObject({ ok: true, value: { status: 'received' } });
      const w4 = spawn(['worker', '--db', url, '--name', 'w4', ...FAST], folder('w4'));
      const failed = await waitFor(() => w4.log().includes(`submission ${second.value.id} alice/cbot`), 60_000);
      expect(failed, w4.log()).toBe(true);
      expect(w4.log()).toMatch(new RegExp(`submission ${second.value.id} alice/cbot \\(version [0-9a-f]{12}\\): failed: the build failed: .+ in \\d+ ms`));
      expect(await submissionOf(ctx, alice, second.value.id)).toMatchObject({ ok: true, value: { status: 'failed' } });
      expect(fresh.log()).not.toContain(`submission ${second.value.id}`);
      for (const w of [fresh, w4]) {
        w.child.kill('SIGINT');
        expect((await w.done).code, w.log()).toBe(0);
      }
    } finally {
      await sql.end();
      await ctx.close();
    }
  });

  it('workers - the build queue outlives a database restart: the worker reports the error, retries and builds what comes next', { timeout: 180_000 }, async () => {
    const url = await server.createDatabase('buildretry');
    process.env.ARENA_SUBMISSIONS_DIR = folder('server2');
    const setup = await reader(url);
    await addParticipant(setup, { name: 'alice', admin: false });
    await setup.close();
    const worker = spawn(['worker', '--db', url, '--name', 'w5', ...FAST], folder('w5'));
    expect(await waitFor(() => worker.log().includes('waiting for jobs'), 60_000), worker.log()).toBe(true);

    await server.stop('fast');
    const reported = await waitFor(() => /database: builds: .*\(retrying\)/.test(worker.log()), 60_000);
    await server.start();
    expect(reported, worker.log()).toBe(true);

    const ctx = await reader(url);
    try {
      const source = botFolder({ name: 'retry', run: './bot', build: 'gcc -O2 -o bot bot.c', transport: 'stdio' }, { 'bot.c': readFileSync(join(ROOT, 'examples/c-bot/bot.c'), 'utf8') });
      const sub = await submitArchive(ctx, alice, await archiveOf(source));
      if (!sub.ok) throw new Error(sub.reason);
      const built = await waitFor(() => worker.log().includes(`submission ${sub.value.id} alice/retry (version ${sub.value.version!.slice(0, 12)}): built here and registered`), 60_000);
      expect(built, worker.log()).toBe(true);
      expect(await submissionOf(ctx, alice, sub.value.id)).toMatchObject({ ok: true, value: { status: 'checking' } });
      worker.child.kill('SIGINT');
      expect((await worker.done).code, worker.log()).toBe(0);
    } finally {
      await ctx.close();
    }
  });
});
