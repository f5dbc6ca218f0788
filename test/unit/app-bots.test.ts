import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { admitRemoteBots } from '../../src/app/launch/admission.ts';
import { checkBotName, lookAlike, nameSkeleton } from '../../src/app/bots/bot-names.ts';
import { addBot, listBots, removeBot, resolveBot } from '../../src/app/bots/bot-registry.ts';
import type { AppContext } from '../../src/app/context.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { systemClock } from '../../src/transport/system-clock.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ctx = (): AppContext => ({ store: createMemoryStore(), dbLocation: ':memory:', projectRoot: ROOT, clock: systemClock });
const node = `"${process.execPath}" bot.js`;

describe('bot names', () => {
  it('bot names - one canonical form: lowercase words joined by single separators', () => {
    for (const ok of ['a', 'ida-star', 'my_bot.v2', 'x1']) expect(checkBotName(ok).ok).toBe(true);
    for (const bad of ['', 'Dijkstra', 'dijkstra.', '-x', 'a--b', 'a b', 'ü', 'a/b', 'x'.repeat(65)]) expect(checkBotName(bad).ok).toBe(false);
    expect(checkBotName('MyBot')).toMatchObject({ ok: false, reason: expect.stringMatching(/did you mean "mybot"/) });
  });

  it('bot names - look-alikes share a skeleton: case, separators, 0/o and 1/l/i', () => {
    expect(nameSkeleton('Ida-Star')).toBe(nameSkeleton('idastar'));
    expect(lookAlike('DIJKSTRA', ['dijkstra'])).toBe('dijkstra');
    expect(lookAlike('d1jkstra', ['dijkstra'])).toBe('dijkstra');
    expect(lookAlike('c0nstructive', ['constructive'])).toBe('constructive');
    expect(lookAlike('dijkstra2', ['dijkstra'])).toBeUndefined();
  });
});

describe('bot registry', () => {
  it('bot registry - refuses look-alikes of built-in and registered bots, whatever their kind', async () => {
    const c = ctx();
    for (const name of ['Dijkstra', 'dijkstra.', 'DIJKSTRA', 'ida_star']) {
      const r = await addBot(c, { name, remote: true });
      expect(r, name).toMatchObject({ ok: false, reason: expect.stringMatching(/confused with the built-in bot/) });
    }
    expect((await addBot(c, { name: 'dijkstra', remote: true })).ok).toBe(false);
    expect((await addBot(c, { name: 'mine', remote: true })).ok).toBe(true);
    expect(await addBot(c, { name: 'Mine', remote: true })).toMatchObject({ ok: false, reason: expect.stringMatching(/registered bot "mine"/) });
    expect(await addBot(c, { name: 'mine', remote: true })).toMatchObject({ ok: false, reason: expect.stringMatching(/already registered/) });
    expect((await c.store.listBots()).map((b) => b.name)).toEqual(['mine']);
  });

  it('bot registry - a command must resolve at registration: cwd exists, program on PATH or an executable file', async () => {
    const c = ctx();
    const dir = mkdtempSync(join(tmpdir(), 'arena-reg-'));
    writeFileSync(join(dir, 'plain.txt'), 'x');
    expect(await addBot(c, { name: 'a', cmd: node, cwd: join(dir, 'nope') })).toMatchObject({ ok: false, reason: expect.stringMatching(/no such directory/) });
    expect(await addBot(c, { name: 'a', cmd: 'no-such-program-xyz --flag' })).toMatchObject({ ok: false, reason: expect.stringMatching(/no program "no-such-program-xyz" on PATH/) });
    expect(await addBot(c, { name: 'a', cmd: './plain.txt', cwd: dir })).toMatchObject({ ok: false, reason: expect.stringMatching(/not an executable file/) });
    expect(await addBot(c, { name: 'a', cmd: '"unterminated' })).toMatchObject({ ok: false, reason: expect.stringMatching(/unterminated/) });
    expect(await addBot(c, { name: 'a', cmd: '   ' })).toMatchObject({ ok: false, reason: expect.stringMatching(/empty/) });
    expect(await addBot(c, { name: 'a', cmd: node, remote: true })).toMatchObject({ ok: false, reason: expect.stringMatching(/exactly one/) });
    expect(await addBot(c, { name: 'a', remote: true, cwd: dir })).toMatchObject({ ok: false, reason: expect.stringMatching(/--cmd bots only/) });
    expect(await c.store.listBots()).toEqual([]);

    const added = await addBot(c, { name: 'a', cmd: `${node} --x`, cwd: dir, stdio: true });
    expect(added).toMatchObject({ ok: true, value: { record: { name: 'a', kind: 'command', cwd: dir, stdio: true } } });
    expect(await addBot(c, { name: 'sh', cmd: 'sh -c true' })).toMatchObject({ ok: true });
  });

  it('bot registry - resolves registered bots before built-ins, with extra flags appended; suggests look-alikes', async () => {
    const c = ctx();
    // A folder of its own: the checkout (the test's working folder) is one the sandbox refuses, and so does bot add.
    await addBot(c, { name: 'mine', cmd: `${node} --x`, cwd: mkdtempSync(join(tmpdir(), 'arena-reg-')) });
    const remote = await addBot(c, { name: 'far', remote: true });
    expect(await resolveBot(c, 'mine --y 2')).toMatchObject({ ok: true, value: { name: 'mine --y 2', source: 'command', command: process.execPath, args: ['bot.js', '--x', '--y', '2'] } });
    expect(await resolveBot(c, 'ida-star --weight 2')).toMatchObject({ ok: true, value: { source: 'builtin', name: 'ida-star --weight 2' } });
    const far = await resolveBot(c, 'far');
    expect(far.ok && far.value.tokenHash).toBe(remote.ok && remote.value.record.tokenHash);
    expect(await resolveBot(c, 'far --x')).toMatchObject({ ok: false, reason: expect.stringMatching(/remote/) });
    expect(await resolveBot(c, 'Dijkstra')).toMatchObject({ ok: false, reason: 'unknown bot "Dijkstra"; did you mean "dijkstra"?' });
    expect(await resolveBot(c, 'zzz')).toMatchObject({ ok: false, reason: expect.stringMatching(/known bots: .*dijkstra.*far.*mine/) });
    expect((await listBots(c)).filter((b) => b.kind !== 'built-in').map((b) => b.name)).toEqual(['far', 'mine']);
    expect(await removeBot(c, 'dijkstra')).toMatchObject({ ok: false, reason: expect.stringMatching(/built-in/) });
    expect(await removeBot(c, 'mine')).toEqual({ ok: true, value: { name: 'mine' } });
    expect(await removeBot(c, 'mine')).toMatchObject({ ok: false });
  });

  it('admission - only the remote bots of the match get in, by their own token', async () => {
    const c = ctx();
    const a = await addBot(c, { name: 'a', remote: true });
    const b = await addBot(c, { name: 'b', remote: true });
    const ra = await resolveBot(c, 'a');
    const builtin = await resolveBot(c, 'dijkstra');
    if (!a.ok || !b.ok || !ra.ok || !builtin.ok) throw new Error('setup');
    const admit = admitRemoteBots([ra.value, builtin.value]);
    expect(admit(a.value.token!)).toBe('a');
    expect(admit(b.value.token!)).toBeUndefined();
    expect(admit('')).toBeUndefined();
  });
});
