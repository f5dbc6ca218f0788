/**
 * The participants' tables on every store (memory, SQLite on a file, PostgreSQL on its own server): names
 * unique, no token hash in a listing, revocation ending sessions at once, sessions expiring.
 */
import { beforeEach, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.ts';
import { describeEachStore } from '../helpers/store-contract.ts';

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const T2 = '2026-01-03T00:00:00.000Z';

describeEachStore('Store participants contract', (b) => {
  let store: Store;
  beforeEach(() => {
    store = b.store;
  });

  it('participants - a name is added once; the list is by name and carries no token hash', async () => {
    const p = store.participants();
    expect(await p.add({ name: 'bob', admin: false, tokenHash: HASH_B })).toBe(true);
    expect(await p.add({ name: 'alice', admin: true, tokenHash: HASH_A })).toBe(true);
    expect(await p.add({ name: 'bob', admin: true, tokenHash: 'c'.repeat(64) })).toBe(false);
    const list = await p.list();
    expect(list.map((x) => [x.name, x.admin, x.revokedAt])).toEqual([
      ['alice', true, undefined],
      ['bob', false, undefined],
    ]);
    expect(JSON.stringify(list)).not.toContain(HASH_A);
    expect(Number.isNaN(Date.parse(list[0]!.createdAt))).toBe(false);
  });

  it('participants - found by token hash, revoked or not; an unknown hash finds no one', async () => {
    const p = store.participants();
    await p.add({ name: 'alice', admin: false, tokenHash: HASH_A });
    expect(await p.byTokenHash(HASH_A)).toMatchObject({ name: 'alice', admin: false, tokenHash: HASH_A });
    expect(await p.byTokenHash(HASH_B)).toBeUndefined();
    expect(await p.revoke('alice', T1)).toBe(true);
    expect((await p.byTokenHash(HASH_A))?.revokedAt).toBe(T1);
  });

  it('participants - revoking twice or an unknown name changes nothing', async () => {
    const p = store.participants();
    await p.add({ name: 'alice', admin: false, tokenHash: HASH_A });
    expect(await p.revoke('nobody', T1)).toBe(false);
    expect(await p.revoke('alice', T1)).toBe(true);
    expect(await p.revoke('alice', T2)).toBe(false);
    expect((await p.list())[0]!.revokedAt).toBe(T1);
  });

  it('sessions - live until expiry; removed once; revocation ends every session of the participant', async () => {
    const p = store.participants();
    await p.add({ name: 'alice', admin: false, tokenHash: HASH_A });
    await p.add({ name: 'bob', admin: false, tokenHash: HASH_B });
    await p.addSession({ idHash: '1'.repeat(64), participant: 'alice', expiresAt: T1 }, T0);
    await p.addSession({ idHash: '2'.repeat(64), participant: 'alice', expiresAt: T2 }, T0);
    await p.addSession({ idHash: '3'.repeat(64), participant: 'bob', expiresAt: T2 }, T0);
    expect((await p.session('1'.repeat(64), T0))?.name).toBe('alice');
    expect(await p.session('1'.repeat(64), T1)).toBeUndefined();
    expect(await p.session('9'.repeat(64), T0)).toBeUndefined();
    expect(await p.removeSession('3'.repeat(64))).toBe(true);
    expect(await p.removeSession('3'.repeat(64))).toBe(false);
    expect(await p.session('3'.repeat(64), T0)).toBeUndefined();
    expect(await p.revoke('alice', T0)).toBe(true);
    expect(await p.session('2'.repeat(64), T0)).toBeUndefined();
  });

  it('sessions - adding one deletes the expired ones', async () => {
    const p = store.participants();
    await p.add({ name: 'alice', admin: false, tokenHash: HASH_A });
    await p.addSession({ idHash: '1'.repeat(64), participant: 'alice', expiresAt: T1 }, T0);
    await p.addSession({ idHash: '2'.repeat(64), participant: 'alice', expiresAt: '2026-01-04T00:00:00.000Z' }, T2);
    // Gone, not merely expired: removing it finds nothing.
    expect(await p.removeSession('1'.repeat(64))).toBe(false);
    expect((await p.session('2'.repeat(64), T2))?.name).toBe('alice');
  });
});
