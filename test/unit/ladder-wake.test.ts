/**
 * The idle ladder's wait (src/app/ladder/ladder-wake.ts) on real SQLite files: a write committed by another
 * connection (another process, as `arena bot add` is) ends it, however long its poll interval; without one
 * it lasts the interval; an abort ends it at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openContext, type OpenContext } from '../../src/app/context.ts';
import { registeredField, waitForChange } from '../../src/app/ladder/ladder-wake.ts';

const opened: OpenContext[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function twoConnections(): Promise<[OpenContext, OpenContext]> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-wake-'));
  dirs.push(dir);
  const db = join(dir, 'ladder.db');
  const open = async () => {
    const c = await openContext({ db });
    if (!c.ok) throw new Error(c.reason);
    opened.push(c.value);
    return c.value;
  };
  const ladder = await open();
  return [ladder, await open()];
}

describe('ladder wake - an idle ladder waits for a change or its poll', () => {
  it('ladder wake - a bot registered through another connection wakes it long before an hour-long poll', async () => {
    const [ladder, other] = await twoConnections();
    const ac = new AbortController();
    const waiting = waitForChange(ladder.store, 3_600_000, ac.signal);
    await new Promise((r) => setTimeout(r, 150));
    await other.store.ladder().setState('someone', 'registered a bot');
    expect(await waiting).toBe('changed');
  });

  it('ladder wake - watching the registered field, an unrelated write does not wake it and a registration does', async () => {
    const [ladder, other] = await twoConnections();
    const ac = new AbortController();
    const field = () => registeredField(ladder.store);
    const quiet = waitForChange(ladder.store, 600, ac.signal, field);
    await new Promise((r) => setTimeout(r, 150));
    await other.store.ladder().setState('someone', 'wrote something else');
    expect(await quiet).toBe('poll');
    const waiting = waitForChange(ladder.store, 3_600_000, ac.signal, field);
    await new Promise((r) => setTimeout(r, 150));
    await other.store.ladder().setState('someone', 'wrote again');
    await other.store.addBot({ name: 'newcomer', kind: 'command', cmd: 'node bot.mjs' });
    expect(await waiting).toBe('changed');
  });

  it('ladder wake - with nothing written it waits out its poll; an abort ends it at once', async () => {
    const [ladder] = await twoConnections();
    const ac = new AbortController();
    expect(await waitForChange(ladder.store, 200, ac.signal)).toBe('poll');
    const waiting = waitForChange(ladder.store, 3_600_000, ac.signal);
    ac.abort();
    expect(await waiting).toBe('aborted');
  });

  it('ladder wake - a store without a change marker waits its poll', async () => {
    const ac = new AbortController();
    expect(await waitForChange({ changeMarker: async () => undefined }, 100, ac.signal)).toBe('poll');
  });
});
