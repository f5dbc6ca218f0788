import { describe, expect, it } from 'vitest';
import { isBusy, retryBusy } from '../../src/store/sqlite/sqlite-busy.ts';

const busy = (code: string) => Object.assign(new Error('database is locked'), { code });
const noSleep = async () => {};

describe('sqlite busy retry', () => {
  it('retryBusy - tries a busy write again until it goes through', async () => {
    let tries = 0;
    const out = await retryBusy(() => {
      if (++tries < 3) throw busy('SQLITE_BUSY');
      return 'written';
    }, noSleep);
    expect(out).toBe('written');
    expect(tries).toBe(3);
  });

  it('retryBusy - gives up after its retries and lets the busy error through', async () => {
    let tries = 0;
    await expect(retryBusy(() => { tries++; throw busy('SQLITE_BUSY_SNAPSHOT'); }, noSleep)).rejects.toThrow('database is locked');
    expect(tries).toBe(7);
  });

  it('retryBusy - never retries any other error', async () => {
    let tries = 0;
    await expect(retryBusy(() => { tries++; throw busy('SQLITE_FULL'); }, noSleep)).rejects.toThrow();
    expect(tries).toBe(1);
  });

  it('isBusy - knows the extended busy codes and nothing else', () => {
    expect(isBusy(busy('SQLITE_BUSY_RECOVERY'))).toBe(true);
    expect(isBusy(busy('SQLITE_LOCKED'))).toBe(false);
    expect(isBusy(new Error('x'))).toBe(false);
  });
});
