/**
 * The submissions' tables on every store (memory, SQLite on a file, PostgreSQL on its own server): a
 * submission's life, the next build taken once, a participant's usage, versions stored once in blocks,
 * a submitted bot registered again in place with its owner and source.
 */
import { beforeEach, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.ts';
import { describeEachStore } from '../helpers/store-contract.ts';

const V1 = '1'.repeat(64);
const V2 = '2'.repeat(64);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T01:00:00.000Z';
const T2 = '2026-01-01T02:00:00.000Z';

describeEachStore('Store submissions contract', (b) => {
  let store: Store;
  beforeEach(() => {
    store = b.store;
  });

  it('submissions - recorded received, updated with a log, listed newest first per participant', async () => {
    const s = store.submissions();
    await s.putVersion(V1, [new Uint8Array([1, 2, 3])], T0);
    const a = (await s.add({ participant: 'alice', bot: 'alice/astar', version: V1, bytes: 3 }, T0))!;
    const c = (await s.add({ participant: 'bob', bot: 'bob/x', version: V1, bytes: 3 }, T1))!;
    expect(a).toMatchObject({ participant: 'alice', bot: 'alice/astar', version: V1, status: 'received', bytes: 3, createdAt: T0, updatedAt: T0 });
    await s.update(a.id, { status: 'failed', reason: 'the build failed', log: 'error: <script>' }, T2);
    expect(await s.get(a.id)).toMatchObject({ status: 'failed', reason: 'the build failed', updatedAt: T2 });
    expect(await s.log(a.id)).toBe('error: <script>');
    await s.update(a.id, { reason: null, ladderHash: V2 }, T2);
    const again = await s.get(a.id);
    expect(again?.reason).toBeUndefined();
    expect(again?.ladderHash).toBe(V2);
    expect((await s.list('alice')).map((x) => x.id)).toEqual([a.id]);
    expect((await s.list()).map((x) => x.id)).toEqual([c.id, a.id]);
    expect((await s.ofBot('bob/x')).map((x) => x.id)).toEqual([c.id]);
    expect(await s.get(9999)).toBeUndefined();
  });

  it('submissions - the next build is the oldest received, taken once', async () => {
    const s = store.submissions();
    await s.putVersion(V1, [new Uint8Array([1])], T0);
    const first = (await s.add({ participant: 'alice', bot: 'alice/a', version: V1, bytes: 1 }, T0))!;
    const second = (await s.add({ participant: 'bob', bot: 'bob/b', version: V1, bytes: 1 }, T1))!;
    expect((await s.claimNext(T2))?.id).toBe(first.id);
    expect((await s.get(first.id))?.status).toBe('building');
    expect((await s.claimNext(T2))?.id).toBe(second.id);
    expect(await s.claimNext(T2)).toBeUndefined();
  });

  it('submissions - usage counts recent ones, pending builds and each stored version once', async () => {
    const s = store.submissions();
    await s.putVersion(V1, [new Uint8Array(10)], T0);
    await s.putVersion(V2, [new Uint8Array(5)], T0);
    const a = (await s.add({ participant: 'alice', bot: 'alice/a', version: V1, bytes: 10 }, T0))!;
    await s.add({ participant: 'alice', bot: 'alice/a', version: V1, bytes: 10 }, T1);
    await s.add({ participant: 'alice', bot: 'alice/b', version: V2, bytes: 5 }, T2);
    await s.update(a.id, { status: 'failed' }, T2);
    expect(await s.usage('alice', T0)).toEqual({ recent: 2, pending: 2, bytes: 15 });
    expect(await s.usage('bob', T0)).toEqual({ recent: 0, pending: 0, bytes: 0 });
  });

  it('versions - stored once by hash in blocks, read back block by block', async () => {
    const s = store.submissions();
    const blocks = [new Uint8Array([0, 1, 2, 255]), new Uint8Array([7])];
    expect(await s.putVersion(V1, blocks, T0)).toBe(true);
    expect(await s.putVersion(V1, [new Uint8Array([9])], T1)).toBe(false);
    expect(await s.versionInfo(V1)).toEqual({ bytes: 5, blocks: 2 });
    expect([...(await s.versionBlock(V1, 0))!]).toEqual([0, 1, 2, 255]);
    expect([...(await s.versionBlock(V1, 1))!]).toEqual([7]);
    expect(await s.versionBlock(V1, 2)).toBeUndefined();
    expect(await s.versionInfo(V2)).toBeUndefined();
  });

  it('bots - a submitted bot carries its owner and source, and is registered again in place', async () => {
    const s = store.submissions();
    await s.putBot({ name: 'alice/astar', kind: 'command', cmd: 'python3 bot.py', cwd: '/x', stdio: true, owner: 'alice', source: V1 }, T0);
    expect(await store.getBot('alice/astar')).toMatchObject({ name: 'alice/astar', owner: 'alice', source: V1, cwd: '/x', stdio: true });
    await s.putBot({ name: 'alice/astar', kind: 'command', cmd: 'python3 bot.py', cwd: '/y', owner: 'alice', source: V2 }, T1);
    const bots = await store.listBots();
    expect(bots.filter((x) => x.name === 'alice/astar')).toHaveLength(1);
    expect(await store.getBot('alice/astar')).toMatchObject({ cwd: '/y', source: V2 });
    expect((await store.getBot('alice/astar'))?.stdio).toBeUndefined();
  });

  it('submissions - an insert under an admission is made only when the usage read with it passes; concurrent ones cannot both pass', async () => {
    const s = store.submissions();
    await s.putVersion(V1, [new Uint8Array(4)], T0);
    const one = { since: T0, ok: (u: { pending: number }) => u.pending === 0 };
    const tries = await Promise.all([1, 2, 3, 4].map(() => s.add({ participant: 'alice', bot: 'alice/a', version: V1, bytes: 4 }, T1, one)));
    expect(tries.filter((t) => t !== undefined)).toHaveLength(1);
    expect((await s.list('alice')).length).toBe(1);
    expect(await s.add({ participant: 'bob', bot: 'bob/a', version: V1, bytes: 4 }, T1, one)).toBeDefined();
  });

  it('submissions - a build left building by a builder that died is queued again, a recent one is not', async () => {
    const s = store.submissions();
    await s.putVersion(V1, [new Uint8Array(1)], T0);
    const old = (await s.add({ participant: 'alice', bot: 'alice/a', version: V1, bytes: 1 }, T0))!;
    await s.claimNext(T0);
    const fresh = (await s.add({ participant: 'bob', bot: 'bob/a', version: V1, bytes: 1 }, T1))!;
    await s.claimNext(T2);
    expect(await s.requeueStale(T1, T2)).toBe(1);
    expect((await s.get(old.id))?.status).toBe('received');
    expect((await s.get(fresh.id))?.status).toBe('building');
    expect((await s.claimNext(T2))?.id).toBe(old.id);
  });
});
