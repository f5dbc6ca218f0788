import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResolvedBot } from '../../src/app/bots/bot-registry.ts';
import { decideJob, decideNewMatch, decideStoredMatch, guardedPaths, projectEntry } from '../../src/app/launch/sandbox-policy.ts';
import type { SandboxSupport } from '../../src/sandbox/probe.ts';

const builtin: ResolvedBot = { name: 'dijkstra', source: 'builtin', command: '/usr/bin/node', args: [], entry: '/p/bots/dijkstra/main.ts' };
const spy: ResolvedBot = { name: 'spy', source: 'command', command: 'python3', args: ['spy.py'], cwd: '/srv/spy' };
const remote: ResolvedBot = { name: 'far', source: 'remote', args: [] };
const works = (): SandboxSupport => ({ ok: true, bwrap: '/usr/bin/bwrap' });
const missing = (): SandboxSupport => ({ ok: false, cause: 'bubblewrap is not installed (no bwrap on PATH)', fix: 'apt-get install bubblewrap' });
const unused = (): SandboxSupport => {
  throw new Error('the probe must not be needed here');
};

describe('sandbox policy', () => {
  it('sandbox policy - a new match: confined where the machine can confine', () => {
    expect(decideNewMatch([builtin, spy, remote], false, works)).toEqual({ ok: true, value: { confined: true } });
  });

  it('sandbox policy - a new match where it cannot: built-in bots run with one warning, a registered bot is refused with cause and fix', () => {
    const b = decideNewMatch([builtin, remote], false, missing);
    expect(b.ok && b.value.confined).toBe(false);
    expect(b.ok && b.value.notice).toBe(
      'warning: the built-in bots run unconfined: cannot confine bots on this machine: bubblewrap is not installed (no bwrap on PATH); fix: apt-get install bubblewrap; the match records it',
    );
    expect(decideNewMatch([builtin, spy], false, missing)).toEqual({
      ok: false,
      code: 'sandbox',
      reason:
        'bot spy is not started: cannot confine bots on this machine: bubblewrap is not installed (no bwrap on PATH); fix: apt-get install bubblewrap (or pass --no-sandbox to run it unconfined, recorded with the match)',
    });
  });

  it('sandbox policy - --no-sandbox: unconfined with its warning, without asking the machine', () => {
    const d = decideNewMatch([spy], true, unused);
    expect(d.ok && d.value).toMatchObject({ confined: false, notice: expect.stringMatching(/^warning: --no-sandbox/) });
  });

  it('sandbox policy - only remote bots: nothing to start, nothing to record', () => {
    expect(decideNewMatch([remote], false, unused)).toEqual({ ok: true, value: { confined: true } });
  });

  it('sandbox policy - a stored match keeps to the way it started', () => {
    const loose = decideStoredMatch(7, { unconfined: true }, [spy], false, unused);
    expect(loose.ok && loose.value.confined).toBe(false);
    expect(decideStoredMatch(7, {}, [spy], false, works)).toEqual({ ok: true, value: { confined: true } });
    const halfway = decideStoredMatch(7, {}, [spy], true, works);
    expect(halfway.ok ? '' : halfway.reason).toBe('match 7 was started with its bots confined; --no-sandbox cannot change that halfway');
    // Not even built-in bots finish a confined match unconfined: the record would be wrong.
    const lost = decideStoredMatch(7, {}, [builtin], false, missing);
    expect(lost.ok ? '' : lost.reason).toMatch(/^match 7 was started with its bots confined, and cannot confine bots on this machine: bubblewrap is not installed/);
  });

  it("sandbox policy - a worker's job: confined; an unconfined match's registered bot needs the worker's own --no-sandbox", () => {
    expect(decideJob(spy, false, false, works)).toEqual({ ok: true, value: { confined: true } });
    expect(decideJob(spy, false, true, works)).toEqual({ ok: true, value: { confined: true } });
    expect(decideJob(spy, true, false, unused)).toMatchObject({ ok: false, code: 'sandbox' });
    expect(decideJob(spy, true, true, unused)).toEqual({ ok: true, value: { confined: false } });
    expect(decideJob(builtin, true, false, unused)).toEqual({ ok: true, value: { confined: false } });
    expect(decideJob(builtin, false, false, missing)).toMatchObject({ ok: false, code: 'sandbox' });
  });

  it('sandbox policy - guarded: the checkout, a database file with its folder, and the snapshot store', () => {
    expect(guardedPaths({ projectRoot: '/p', dbLocation: '/data/arena.db' })).toEqual(['/p', '/data/arena.db', '/data', '/data/arena.db.snapshots']);
    expect(guardedPaths({ projectRoot: '/p', dbLocation: 'postgres://u@h/db' })).toEqual(['/p', join(homedir(), '.cache', 'puzzle-arena', 'snapshots')]);
  });

  it('sandbox policy - projectEntry: a command bot running a file of the checkout is shown that code; others are not', () => {
    const root = mkdtempSync(join(tmpdir(), 'arena-entry-'));
    mkdirSync(join(root, 'test'));
    writeFileSync(join(root, 'test', 'bot.ts'), '');
    mkdirSync(join(root, 'node_modules'));
    writeFileSync(join(root, 'node_modules', 'x.js'), '');
    const fixture: ResolvedBot = { name: 'f', source: 'command', command: '/usr/bin/node', args: ['--import', 'file:///x/loader.mjs', 'test/bot.ts'], cwd: root };
    expect(projectEntry(fixture, root)).toBe(join(root, 'test', 'bot.ts'));
    expect(projectEntry({ ...fixture, args: [join(root, 'node_modules', 'x.js')] }, root)).toBeUndefined();
    expect(projectEntry({ ...fixture, args: ['/etc/hostname'] }, root)).toBeUndefined();
    expect(projectEntry(builtin, root)).toBe('/p/bots/dijkstra/main.ts');
    expect(projectEntry(remote, root)).toBeUndefined();
  });

  it("sandbox policy - a participant's bot (alice/astar) is never unconfined, and never shown the checkout's code", () => {
    const owned: ResolvedBot = { name: 'alice/astar', source: 'command', command: 'python3', args: ['bot.py'], cwd: '/srv/built/abc' };
    const asked = decideNewMatch([builtin, owned], true, unused);
    expect(asked.ok).toBe(false);
    expect(!asked.ok && asked.reason).toMatch(/alice\/astar is a participant's bot: a submitted bot never runs unconfined/);
    expect(decideNewMatch([builtin, spy], true, unused)).toMatchObject({ ok: true, value: { confined: false } });
    expect(decideJob(owned, true, true, unused)).toMatchObject({ ok: false, code: 'sandbox' });
    // Its folder inside the checkout (the default database's submissions folder is), a file it runs there.
    const root = mkdtempSync(join(tmpdir(), 'arena-owned-'));
    const folder = join(root, 'leaderboard.db.submissions', 'built', 'abc');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'bot.mjs'), "import '../x.mjs';\n");
    const local: ResolvedBot = { name: 'local-fixture', source: 'command', command: 'node', args: ['bot.mjs'], cwd: folder };
    expect(projectEntry(local, root)).toBe(join(folder, 'bot.mjs'));
    expect(projectEntry({ ...local, name: 'alice/astar' }, root)).toBeUndefined();
    expect(projectEntry({ ...local, name: 'alice/astar --weight 2' }, root)).toBeUndefined();
  });
});
