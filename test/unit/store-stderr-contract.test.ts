/**
 * The bots' stderr on every store (memory, SQLite on a file, PostgreSQL on its own server): a piece is
 * kept under the cap, later pieces (another process, a resumed match) are joined under the same cap, and
 * each match and bot has its own.
 */
import { beforeEach, expect, it } from 'vitest';
import { capText, utf8Bytes } from '../../src/core/capped-text.ts';
import type { Store } from '../../src/store/types.ts';
import { describeEachStore } from '../helpers/store-contract.ts';

const KiB = 1024;

describeEachStore('Store stderr contract', (b) => {
  let store: Store;
  beforeEach(() => {
    store = b.store;
  });

  it('stderr - kept per match and bot; nothing for a bot that wrote none; bots listed by name', async () => {
    const m1 = await b.newMatch();
    const m2 = await b.newMatch();
    const s = store.stderrs();
    expect(await s.read(m1.id, 'a')).toBeUndefined();
    await s.append(m1.id, 'b', capText('bee <script>\n'));
    await s.append(m1.id, 'a', capText('ay\n'));
    await s.append(m2.id, 'a', capText('other match\n'));
    expect(await s.read(m1.id, 'a')).toEqual({ head: 'ay\n', tail: '', cutBytes: 0 });
    expect(await s.read(m1.id, 'b')).toEqual({ head: 'bee <script>\n', tail: '', cutBytes: 0 });
    expect(await s.bots(m1.id)).toEqual(['a', 'b']);
    expect(await s.bots(m2.id)).toEqual(['a']);
  });

  it('stderr - pieces join under one 64 KiB cap: the first 48 KiB stay, the last 16 KiB follow, every other byte is counted', async () => {
    const m = await b.newMatch();
    const s = store.stderrs();
    await s.append(m.id, 'a', capText('first process\n'));
    await s.append(m.id, 'a', capText('x'.repeat(1024 * KiB)));
    await s.append(m.id, 'a', capText('resumed: last words\n'));
    const t = (await s.read(m.id, 'a'))!;
    expect(t.head.startsWith('first process\nxxx')).toBe(true);
    expect(t.tail.endsWith('xxresumed: last words\n')).toBe(true);
    expect([utf8Bytes(t.head), utf8Bytes(t.tail)]).toEqual([48 * KiB, 16 * KiB]);
    expect(t.cutBytes).toBe(14 + 1024 * KiB + 20 - 64 * KiB);
  });

  it('stderr - appends racing on one row lose neither text', async () => {
    const m = await b.newMatch();
    const s = store.stderrs();
    await Promise.all(Array.from({ length: 8 }, (_, i) => s.append(m.id, 'a', capText(`piece ${i}\n`))));
    const head = (await s.read(m.id, 'a'))!.head;
    for (let i = 0; i < 8; i++) expect(head).toContain(`piece ${i}\n`);
  });
});
