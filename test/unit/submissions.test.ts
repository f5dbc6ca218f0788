/**
 * The submission service's rules on the memory store with real archives and real intake: ownership of
 * names, look-alikes and built-ins, the per-participant limits, who may read what, the stored version
 * (canonical bytes, once, in blocks), a failed build with its log, and a withdrawal.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/app/context.ts';
import { resolveBot } from '../../src/app/bots/bot-registry.ts';
import { addParticipant } from '../../src/app/participants/participants.ts';
import { buildSubmission } from '../../src/app/submissions/submission-builds.ts';
import { submissionSettings } from '../../src/app/submissions/submission-settings.ts';
import { buildLogOf, listSubmissions, participantBots, submissionOf, submitArchive, withdrawBot, type Caller } from '../../src/app/submissions/submissions.ts';
import { keptLog, LOG_MAX_BYTES, type BuildRunner } from '../../src/app/bots/build-runner.ts';
import { fetchVersion } from '../../src/app/bots/version-store.ts';
import { viewOf } from '../../src/app/submissions/submission-views.ts';
import type { BotVersion } from '../../src/store/ladder-types.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { VERSION_BLOCK_BYTES } from '../../src/store/steps/submission-schema.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { botArchive, scratch } from '../helpers/submission-archives.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const alice: Caller = { name: 'alice', admin: false };
const bob: Caller = { name: 'bob', admin: false };
const admin: Caller = { name: 'root', admin: true };
const PY = { run: 'python3 bot.py', transport: 'stdio' };

async function context(): Promise<AppContext> {
  const ctx: AppContext = { store: createMemoryStore(), dbLocation: join(scratch('sub-db'), 'arena.db'), projectRoot: ROOT, clock: systemClock };
  for (const [name, isAdmin] of [['alice', false], ['bob', false], ['root', true]] as const) await addParticipant(ctx, { name, admin: isAdmin });
  return ctx;
}

/** Submits and marks the submission done (failed), so the one-build-at-a-time rule lets the next one in. */
async function submitDone(ctx: AppContext, caller: Caller, manifest: Record<string, unknown>, files?: Record<string, string>) {
  const r = await submitArchive(ctx, caller, await botArchive(manifest, files));
  if (r.ok) await ctx.store.submissions().update(r.value.id, { status: 'failed', reason: 'test' }, new Date().toISOString());
  return r;
}

describe('submissions', () => {
  it('submitArchive - a bare name is owned by the submitter; the version is the sha256 of the canonical archive, stored once', async () => {
    const ctx = await context();
    const r = await submitArchive(ctx, alice, await botArchive({ name: 'astar', ...PY }));
    if (!r.ok) throw new Error(r.reason);
    expect(r.value).toMatchObject({ participant: 'alice', bot: 'alice/astar', status: 'received' });
    expect(r.value.version).toMatch(/^[0-9a-f]{64}$/);
    const file = join(scratch('sub-fetch'), 'v.tar.gz');
    const fetched = await fetchVersion(ctx, r.value.version!, file);
    expect(fetched.ok).toBe(true);
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(r.value.version);
    // Nothing of the upload is left behind in the intake folder.
    expect(readdirSync(join(`${ctx.dbLocation}.submissions`, 'intake'))).toEqual([]);
    // The same files submitted again (after the first is done) are the same version, not stored twice.
    await ctx.store.submissions().update(r.value.id, { status: 'failed' }, new Date().toISOString());
    const again = await submitArchive(ctx, alice, await botArchive({ name: 'astar', ...PY }));
    expect(again.ok && again.value.version).toBe(r.value.version);
    expect(await ctx.store.submissions().putVersion(r.value.version!, [], new Date().toISOString())).toBe(false);
  });

  it("submitArchive - another participant's bot is forbidden, an admin may submit it; an unknown owner is refused", async () => {
    const ctx = await context();
    expect(await submitDone(ctx, alice, { name: 'astar', ...PY })).toMatchObject({ ok: true });
    const byBob = await submitDone(ctx, bob, { name: 'alice/astar', ...PY });
    expect(byBob).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await submitDone(ctx, admin, { name: 'alice/astar', ...PY })).toMatchObject({ ok: true, value: { bot: 'alice/astar', participant: 'root' } });
    expect(await submitDone(ctx, admin, { name: 'nobody/astar', ...PY })).toMatchObject({ ok: false, code: 'not-found' });
    expect(await submitDone(ctx, alice, { name: 'alice/astar', ...PY })).toMatchObject({ ok: true, value: { bot: 'alice/astar' } });
  });

  it("submitArchive - a built-in's name, a look-alike of another's registered bot, or a name held by a non-submitted bot is refused", async () => {
    const ctx = await context();
    expect(await submitDone(ctx, alice, { name: 'ida-star', ...PY })).toMatchObject({ ok: false, code: 'taken' });
    expect(await submitDone(ctx, alice, { name: 'Dijkstra', ...PY })).toMatchObject({ ok: false, code: 'manifest' });
    await ctx.store.submissions().putBot({ name: 'alice/astar', kind: 'command', cmd: 'x', cwd: '/nowhere', owner: 'alice', source: '0'.repeat(64) }, new Date().toISOString());
    await addParticipant(ctx, { name: 'alice2', admin: false });
    const lookAlike = await submitDone(ctx, { name: 'alice2', admin: false }, { name: 'a-star', ...PY });
    expect(lookAlike).toMatchObject({ ok: true });
    // "al1ce/astar" (an admin submitting for a participant named al1ce would make it) reads as alice/astar.
    await ctx.store.participants().add({ name: 'al1ce', admin: false, tokenHash: 'f'.repeat(64) });
    expect(await submitDone(ctx, admin, { name: 'al1ce/astar', ...PY })).toMatchObject({ ok: false, code: 'look-alike' });
    // A name registered some other way than by a submission is never taken over.
    await ctx.store.addBot({ name: 'bob/x', kind: 'command', cmd: 'x' });
    expect(await submitDone(ctx, bob, { name: 'x', ...PY })).toMatchObject({ ok: false, code: 'forbidden' });
  });

  it('submitArchive - a bad manifest, a hostile archive and a text file are refused with their reason; nothing is recorded', async () => {
    const ctx = await context();
    expect(await submitArchive(ctx, alice, await botArchive({ name: 'astar', ...PY, colour: 'red' }))).toMatchObject({ ok: false, code: 'manifest', reason: expect.stringContaining('"colour"') });
    expect(await submitArchive(ctx, alice, await botArchive({ name: 'a/b/c', ...PY }))).toMatchObject({ ok: false, code: 'manifest' });
    expect(await submitArchive(ctx, alice, await botArchive({ name: 'astar', ...PY, exclude: ['*.json'] }))).toMatchObject({ ok: false, code: 'manifest', reason: expect.stringContaining('leaves out arena-bot.json') });
    const text = join(scratch('sub-text'), 'x.tar.gz');
    writeFileSync(text, 'hello');
    expect(await submitArchive(ctx, alice, text)).toMatchObject({ ok: false, code: 'archive', reason: expect.stringContaining('not an archive') });
    expect(await ctx.store.submissions().list()).toEqual([]);
  });

  it('submitArchive - an archive holding a symlink to /etc/passwd is refused, and nothing of it stays in the intake folder', async () => {
    const ctx = await context();
    const dir = scratch('sub-link');
    writeFileSync(join(dir, 'arena-bot.json'), JSON.stringify({ name: 'astar', ...PY }));
    symlinkSync('/etc/passwd', join(dir, 'bot.py'));
    const archive = join(scratch('sub-link-archive'), 'x.tar.gz');
    execFileSync('tar', ['czf', archive, '-C', dir, '.']);
    const r = await submitArchive(ctx, alice, archive);
    expect(r).toMatchObject({ ok: false, code: 'archive', reason: expect.stringContaining('symbolic link') });
    expect(readdirSync(join(`${ctx.dbLocation}.submissions`, 'intake'))).toEqual([]);
    expect(await ctx.store.submissions().list()).toEqual([]);
  });

  it('limits - per hour, one build at a time, stored bytes: each refused `limit` with what to do', async () => {
    const ctx = await context();
    const archive = await botArchive({ name: 'astar', ...PY });
    const pending = await submitArchive(ctx, alice, archive);
    expect(pending.ok).toBe(true);
    const second = await submitArchive(ctx, alice, archive);
    expect(second).toMatchObject({ ok: false, code: 'limit', reason: expect.stringContaining('one build at a time') });
    // bob is not held up by alice's pending build.
    expect((await submitArchive(ctx, bob, archive)).ok).toBe(true);
    const few = { perHour: 2 };
    await ctx.store.submissions().update(pending.ok ? pending.value.id : 0, { status: 'failed' }, new Date().toISOString());
    expect(await submitDone(ctx, alice, { name: 'b', ...PY })).toMatchObject({ ok: true });
    const third = await submitArchive(ctx, alice, await botArchive({ name: 'c', ...PY }), few);
    expect(third).toMatchObject({ ok: false, code: 'limit', reason: expect.stringContaining('at most 2 an hour') });
    const small = await submitArchive(ctx, admin, await botArchive({ name: 'big', ...PY }, { 'bot.py': 'x'.repeat(5000) }), { storedBytes: 100 });
    expect(small).toMatchObject({ ok: false, code: 'limit', reason: expect.stringContaining('allowed') });
  });

  it('limits - configurable from the environment', () => {
    const s = submissionSettings({}, { ARENA_SUBMISSIONS_PER_HOUR: '5', ARENA_SUBMISSION_BYTES: '1024' });
    expect([s.perHour, s.storedBytes]).toEqual([5, 1024]);
    expect(submissionSettings({ perHour: 7 }, { ARENA_SUBMISSIONS_PER_HOUR: 'lots' }).perHour).toBe(7);
    expect(submissionSettings({}, {}).perHour).toBe(20);
    expect(submissionSettings({}, {}).storedBytes).toBe(200 * 2 ** 20);
  });

  it('reading - a submission, its log and the list are for the owner and admins only', async () => {
    const ctx = await context();
    const r = await submitArchive(ctx, alice, await botArchive({ name: 'astar', ...PY }));
    if (!r.ok) throw new Error(r.reason);
    expect(await submissionOf(ctx, alice, r.value.id)).toMatchObject({ ok: true, value: { id: r.value.id } });
    expect(await submissionOf(ctx, admin, r.value.id)).toMatchObject({ ok: true });
    expect(await submissionOf(ctx, bob, r.value.id)).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await buildLogOf(ctx, bob, r.value.id)).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await submissionOf(ctx, alice, 999)).toMatchObject({ ok: false, code: 'not-found' });
    expect(await listSubmissions(ctx, bob, 'alice')).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await listSubmissions(ctx, admin, 'alice')).toMatchObject({ ok: true, value: [{ id: r.value.id }] });
    expect(await listSubmissions(ctx, bob)).toEqual({ ok: true, value: [] });
  });

  it('builds - a failing build fails the submission with its reason and its log kept (at most 64 KiB)', async () => {
    const ctx = await context();
    const r = await submitArchive(ctx, alice, await botArchive({ name: 'astar', ...PY, build: 'make' }));
    if (!r.ok) throw new Error(r.reason);
    const failing: BuildRunner = async () => ({ ok: false, code: 'build', reason: 'exit 2', log: `cc: error <script>\n${'y'.repeat(100_000)}` });
    const claimed = await ctx.store.submissions().claimNext(new Date().toISOString());
    expect(claimed?.id).toBe(r.value.id);
    expect((await buildSubmission(ctx, claimed!, submissionSettings({ builder: failing }))).ok).toBe(false);
    expect(await submissionOf(ctx, alice, r.value.id)).toMatchObject({ ok: true, value: { status: 'failed', reason: 'the build failed: exit 2' } });
    const log = await buildLogOf(ctx, alice, r.value.id);
    expect(log.ok && log.value.startsWith('cc: error <script>')).toBe(true);
    expect(log.ok && Buffer.byteLength(log.value)).toBeLessThanOrEqual(LOG_MAX_BYTES);
    expect(await ctx.store.getBot('alice/astar')).toBeUndefined();
  });

  it('builds - the default builder runs the build command in the sandbox: what it writes to /tmp stays there', async () => {
    const ctx = await context();
    const r = await submitArchive(ctx, alice, await botArchive({ name: 'astar', ...PY, build: 'touch /tmp/pwned-by-build && echo built > made.txt' }));
    if (!r.ok) throw new Error(r.reason);
    const claimed = await ctx.store.submissions().claimNext(new Date().toISOString());
    const built = await buildSubmission(ctx, claimed!, submissionSettings());
    expect(built.ok, built.ok ? '' : built.reason).toBe(true);
    expect(await submissionOf(ctx, alice, r.value.id)).toMatchObject({ ok: true, value: { status: 'checking' } });
    const bot = await ctx.store.getBot('alice/astar');
    expect(readFileSync(join(bot!.cwd!, 'made.txt'), 'utf8')).toBe('built\n');
    expect(existsSync('/tmp/pwned-by-build')).toBe(false);
  });

  it('builds - a build that rewrites arena-bot.json changes nothing: the bot starts by the manifest it was submitted with', async () => {
    const ctx = await context();
    const r = await submitArchive(ctx, alice, await botArchive({ name: 'astar', ...PY, build: 'make' }));
    if (!r.ok) throw new Error(r.reason);
    // A hostile build: asks for every core and another command in the folder it leaves behind.
    const rewriting: BuildRunner = async (req) => {
      cpSync(req.source, req.dest, { recursive: true });
      writeFileSync(join(req.dest, 'arena-bot.json'), JSON.stringify({ name: 'astar', run: 'sh evil.sh', transport: 'stdio', threads: 64 }));
      return { ok: true, value: { folder: req.dest, log: '', seconds: 0 } };
    };
    const claimed = await ctx.store.submissions().claimNext(new Date().toISOString());
    const built = await buildSubmission(ctx, claimed!, submissionSettings({ builder: rewriting }));
    expect(built.ok, built.ok ? '' : built.reason).toBe(true);
    const bot = await resolveBot(ctx, 'alice/astar');
    if (!bot.ok) throw new Error(bot.reason);
    expect(bot.value.threads).toBeUndefined();
    expect([bot.value.command, ...bot.value.args]).toEqual(['python3', 'bot.py']);
    expect(JSON.parse(readFileSync(join(bot.value.cwd!, 'arena-bot.json'), 'utf8'))).toEqual({ name: 'astar', ...PY, build: 'make' });
  });

  it('builds - a second version of alice/astar replaces the first registration: new source, new build folder, new ladder hash', async () => {
    const ctx = await context();
    const settings = submissionSettings();
    const registered = [];
    for (const body of ['print(1)\n', 'print(2)\n']) {
      const r = await submitArchive(ctx, alice, await botArchive({ name: 'astar', ...PY }, { 'bot.py': body }));
      if (!r.ok) throw new Error(r.reason);
      const claimed = await ctx.store.submissions().claimNext(new Date().toISOString());
      const built = await buildSubmission(ctx, claimed!, settings);
      if (!built.ok) throw new Error(built.reason);
      const view = await submissionOf(ctx, alice, r.value.id);
      expect(view).toMatchObject({ ok: true, value: { status: 'checking' } });
      registered.push({ bot: await ctx.store.getBot('alice/astar'), sub: await ctx.store.submissions().get(r.value.id) });
    }
    const [first, second] = registered;
    expect(second!.bot).toMatchObject({ owner: 'alice', cmd: 'python3 bot.py', stdio: true, source: second!.sub!.version });
    expect(second!.bot!.source).not.toBe(first!.bot!.source);
    expect(second!.bot!.cwd).toBe(join(`${ctx.dbLocation}.submissions`, 'built', second!.sub!.version));
    expect(readFileSync(join(second!.bot!.cwd!, 'bot.py'), 'utf8')).toBe('print(2)\n');
    expect(second!.sub!.ladderHash).not.toBe(first!.sub!.ladderHash);
    expect((await ctx.store.listBots()).filter((b) => b.name === 'alice/astar')).toHaveLength(1);
  });

  it('keptLog - cuts on a character boundary and says so', () => {
    const log = keptLog('é'.repeat(LOG_MAX_BYTES));
    expect(Buffer.byteLength(log)).toBeLessThanOrEqual(LOG_MAX_BYTES);
    expect(log).toMatch(/^é+\n\[… log cut at 64 KiB\]\n$/);
    expect(keptLog('short')).toBe('short');
  });

  it('versions - a version longer than a block is stored in blocks and read back whole; a damaged block is refused', async () => {
    const ctx = await context();
    const big = Buffer.alloc(VERSION_BLOCK_BYTES * 2 + 10, 7);
    const hash = createHash('sha256').update(big).digest('hex');
    const { storeVersion } = await import('../../src/app/bots/version-store.ts');
    expect((await storeVersion(ctx, hash, big)).added).toBe(true);
    expect(await ctx.store.submissions().versionInfo(hash)).toEqual({ bytes: big.length, blocks: 3 });
    const file = join(scratch('sub-big'), 'v');
    expect(await fetchVersion(ctx, hash, file)).toEqual({ ok: true, value: big.length });
    const wrong = 'e'.repeat(64);
    await ctx.store.submissions().putVersion(wrong, [new Uint8Array([1, 2])], new Date().toISOString());
    const file2 = join(scratch('sub-bad'), 'v');
    expect(await fetchVersion(ctx, wrong, file2)).toMatchObject({ ok: false, code: 'corrupt' });
    expect(existsSync(file2)).toBe(false);
    expect(await fetchVersion(ctx, 'd'.repeat(64), join(scratch('sub-none'), 'v'))).toMatchObject({ ok: false, code: 'not-found' });
  });

  it('withdrawBot - owner or admin only; it unregisters the bot and it leaves the participant page as not registered', async () => {
    const ctx = await context();
    await ctx.store.submissions().putBot({ name: 'alice/astar', kind: 'command', cmd: 'x', cwd: '/nowhere', owner: 'alice', source: '0'.repeat(64) }, new Date().toISOString());
    expect(await withdrawBot(ctx, bob, 'alice/astar')).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await withdrawBot(ctx, alice, 'ida-star')).toMatchObject({ ok: false, code: 'not-found' });
    expect(await participantBots(ctx, undefined, 'alice')).toEqual({ ok: true, value: [{ name: 'alice/astar', registered: true, versions: [] }] });
    expect(await withdrawBot(ctx, alice, 'alice/astar')).toEqual({ ok: true, value: { bot: 'alice/astar' } });
    expect(await ctx.store.getBot('alice/astar')).toBeUndefined();
    expect(await participantBots(ctx, undefined, 'nobody')).toMatchObject({ ok: false, code: 'not-found' });
  });

  it('viewOf - a registered submission reads its status from the ladder version of its bot and build', () => {
    const sub = { id: 1, participant: 'alice', bot: 'alice/astar', version: 'a'.repeat(64), status: 'checking' as const, bytes: 10, ladderHash: 'h1', createdAt: 'T0', updatedAt: 'T0' };
    const version = (status: BotVersion['status'], note?: string): BotVersion => ({ id: 7, bot: 'alice/astar', number: 3, hash: 'h1', command: 'x', status, classes: [], current: true, createdAt: 'T1', updatedAt: 'T2', ...(note ? { note } : {}) });
    expect(viewOf(sub, [])).toMatchObject({ status: 'checking', reason: expect.stringContaining('waiting for the running ladder') });
    expect(viewOf(sub, [version('new')])).toMatchObject({ status: 'checking', ladderVersion: 3 });
    expect(viewOf(sub, [version('checking')])).toMatchObject({ status: 'checking', ladderVersion: 3 });
    expect(viewOf(sub, [version('placing', 'placing: 2 of 4 games')])).toMatchObject({ status: 'placing', reason: 'placing: 2 of 4 games' });
    expect(viewOf(sub, [version('placed')])).toMatchObject({ status: 'placed', ladderVersion: 3, updatedAt: 'T2' });
    expect(viewOf(sub, [version('failed', 'bot check: it crashed')])).toMatchObject({ status: 'failed', reason: 'bot check: it crashed' });
    // Another bot's version with the same hash, or another build of this bot, is not this submission's.
    expect(viewOf(sub, [{ ...version('placed'), bot: 'bob/astar' }, { ...version('failed'), hash: 'h2' }]).status).toBe('checking');
    expect(viewOf({ ...sub, status: 'failed', reason: 'the build failed: exit 2' }, [version('placed')])).toMatchObject({ status: 'failed', reason: 'the build failed: exit 2' });
  });
});
