import { describe, expect, it } from 'vitest';
import { ResultWrites } from '../../src/referee/result-writes.ts';
import type { ResultRecord } from '../../src/store/types.ts';

const record = (scrambleId: number): ResultRecord => ({ scrambleId, bot: 'a', verdict: 'solved', moveCount: 2, moves: 'LU', wallMs: 1 });
const turn = () => new Promise((r) => setImmediate(r));

describe('ResultWrites', () => {
  it('ResultWrites - commits after the turn that queued it, in order, each reported after its own commit', async () => {
    const log: string[] = [];
    const writes = new ResultWrites({ recordResult: async (r) => void log.push(`commit ${r.scrambleId}`) });
    for (const id of [1, 2, 3]) writes.add({ record: record(id), committed: () => log.push(`report ${id}`) });
    writes.then(() => log.push('end of job'));
    // Nothing before the turn is over: what the turn sends next leaves first.
    log.push('turn over');
    await writes.drain();
    expect(log).toEqual(['turn over', 'commit 1', 'report 1', 'commit 2', 'report 2', 'commit 3', 'report 3', 'end of job']);
  });

  it('ResultWrites - a failed write is reported once and stops what follows it', async () => {
    const log: string[] = [];
    const writes = new ResultWrites({
      recordResult: async (r) => {
        if (r.scrambleId === 2) throw new Error('disk full');
        log.push(`commit ${r.scrambleId}`);
      },
    });
    for (const id of [1, 2, 3]) writes.add({ record: record(id), committed: () => log.push(`report ${id}`) });
    writes.then(() => log.push('end of job'));
    await expect(writes.drain()).rejects.toThrow('disk full');
    expect(() => writes.check()).toThrow('disk full');
    expect(log).toEqual(['commit 1', 'report 1']);
  });

  it('ResultWrites - room() holds a worker back while more than one result waits for a slow store', async () => {
    const release: Array<() => void> = [];
    const writes = new ResultWrites({ recordResult: () => new Promise<void>((r) => release.push(r)) });
    writes.add({ record: record(1) });
    let roomy = false;
    void writes.room().then(() => (roomy = true));
    await turn();
    await turn();
    expect(roomy).toBe(true); // one uncommitted result is allowed
    writes.add({ record: record(2) });
    roomy = false;
    const waiting = writes.room().then(() => (roomy = true));
    for (let i = 0; i < 5; i++) await turn();
    expect(roomy).toBe(false);
    release.shift()!();
    for (let i = 0; i < 5; i++) await turn();
    release.shift()!();
    await waiting;
    expect(roomy).toBe(true);
    await writes.drain();
  });
});
