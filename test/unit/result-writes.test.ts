import { describe, expect, it } from 'vitest';
import { MAX_UNCOMMITTED, ResultWrites } from '../../src/referee/result-writes.ts';
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

  it('ResultWrites - room() holds a worker back while more than MAX_UNCOMMITTED results wait for a slow store', async () => {
    const release: Array<() => void> = [];
    const writes = new ResultWrites({ recordResult: () => new Promise<void>((r) => release.push(r)) });
    for (let id = 1; id <= MAX_UNCOMMITTED; id++) writes.add({ record: record(id) });
    let roomy = false;
    void writes.room().then(() => (roomy = true));
    await turn();
    await turn();
    expect(roomy).toBe(true); // MAX_UNCOMMITTED uncommitted results are allowed
    writes.add({ record: record(MAX_UNCOMMITTED + 1) });
    roomy = false;
    const waiting = writes.room().then(() => (roomy = true));
    for (let i = 0; i < 5; i++) await turn();
    expect(roomy).toBe(false);
    while (!roomy) {
      release.shift()?.();
      await turn();
    }
    await waiting;
    expect(roomy).toBe(true);
    let drained = false;
    void writes.drain().then(() => (drained = true));
    while (!drained) {
      release.shift()?.();
      await turn();
    }
  });

  it('ResultWrites - results validated while a commit is in flight are committed together in the next, each reported after it', async () => {
    const log: string[] = [];
    const release: Array<() => void> = [];
    const slow = (what: string) => new Promise<void>((done) => release.push(() => done(void log.push(`commit ${what}`))));
    const writes = new ResultWrites({
      recordResult: (r) => slow(String(r.scrambleId)),
      recordResults: (rs) => slow(rs.map((r) => r.scrambleId).join('+')),
    });
    writes.add({ record: record(1), committed: () => log.push('report 1') });
    await turn();
    await turn();
    // Commit 1 is in flight (a remote store): these wait for it and go together.
    expect(release).toHaveLength(1);
    for (const id of [2, 3, 4]) {
      writes.add({ record: record(id), committed: () => log.push(`report ${id}`) });
      await turn();
    }
    writes.then(() => log.push('end of job'));
    writes.add({ record: record(5), committed: () => log.push('report 5') });
    let drained = false;
    void writes.drain().then(() => (drained = true));
    while (!drained) {
      release.shift()?.();
      await turn();
    }
    // The end of the job follows every result queued before it; 5 came while their commit was still waiting.
    expect(log).toEqual(['commit 1', 'report 1', 'commit 2+3+4+5', 'report 2', 'report 3', 'report 4', 'report 5', 'end of job']);
  });

  it('ResultWrites - a fast store commits each result in the turn after it, not held for the next', async () => {
    const log: string[] = [];
    const writes = new ResultWrites({
      recordResult: async (r) => void log.push(`commit ${r.scrambleId}`),
      recordResults: async (rs) => void log.push(`commit ${rs.map((r) => r.scrambleId).join('+')}`),
    });
    for (const id of [1, 2, 3]) {
      writes.add({ record: record(id), committed: () => log.push(`report ${id}`) });
      log.push(`turn ${id} over`);
      await turn();
      await turn();
    }
    await writes.drain();
    expect(log).toEqual(['turn 1 over', 'commit 1', 'report 1', 'turn 2 over', 'commit 2', 'report 2', 'turn 3 over', 'commit 3', 'report 3']);
  });
});
