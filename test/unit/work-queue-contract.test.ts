/**
 * The queue contract: one behaviour suite run against every WorkQueue, the in-memory one (over the memory
 * store) and PostgreSQL's (pg-boss through its public API, on a real server this suite starts; never skipped
 * under CI=true). What only PostgreSQL can show (server restarts, silence measured by the server's clock,
 * lost replies) is in test/e2e/pg-queue.test.ts.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { createMemoryWorkQueue } from '../../src/store/memory/memory-work-queue.ts';
import { openPgStore } from '../../src/store/pg/pg-store.ts';
import { openPgWorkQueue } from '../../src/store/pg/pg-work-queue.ts';
import type { NewScramble, ScrambleRecord, Store } from '../../src/store/types.ts';
import type { WorkQueue } from '../../src/store/work-queue.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';

const liveness = { deadAfterSeconds: 30 };
const worker = (name: string) => ({ name, host: 'h', cpu: 'test cpu', pid: 1, concurrency: 1 });

function scrambles(n: number): NewScramble[] {
  return Array.from({ length: n }, (_, index) => ({
    index,
    state: { kind: 'hanoi', pegs: 3, start: 'AB', goal: 'CC' },
    puzzleClass: 'hanoi 2',
    bound: { optimal: 3, lowerBound: 3 },
  }));
}

interface QueueImpl {
  readonly name: string;
  readonly skip?: boolean;
  open(): Promise<{ store: Store; queue: WorkQueue }>;
  done?(): Promise<void>;
}

function pgImpl(): QueueImpl {
  let server: Promise<PgServer> | undefined;
  return {
    name: 'PostgreSQL queue (pg-boss)',
    skip: skipPgTests(),
    async open() {
      server ??= startPgServer();
      const store = await openPgStore(await (await server).createDatabase('qc'));
      return { store, queue: await openPgWorkQueue(store.pool, { supervise: false }) };
    },
    async done() {
      await (await server)?.destroy();
    },
  };
}

const IMPLS: QueueImpl[] = [
  {
    name: 'in-memory queue',
    async open() {
      const store = createMemoryStore();
      return { store, queue: createMemoryWorkQueue(store) };
    },
  },
  pgImpl(),
];

for (const impl of IMPLS) {
  describe.skipIf(impl.skip ?? false)(`work queue contract - ${impl.name}`, () => {
    let store: Store;
    let queue: WorkQueue;

    beforeEach(async () => {
      ({ store, queue } = await impl.open());
    });
    afterEach(async () => {
      await queue.close();
      await store.close();
    });
    afterAll(async () => {
      await impl.done?.();
    });

    async function matchWith(n: number, bots = ['a', 'b']): Promise<{ id: number; s: ScrambleRecord[] }> {
      const m = await store.createMatch({ config: null, seed: '1', generatorVersion: 'g', bots, scrambles: scrambles(n) });
      return { id: m.id, s: await store.listScrambles(m.id) };
    }

    it('work queue - a stopped worker\'s jobs go back at once, and it cannot complete them', async () => {
      const { id, s } = await matchWith(1, ['a']);
      await queue.enqueue(id, [{ bot: 'a', scrambleIds: [s[0].id] }], { leaseSeconds: 3600 });
      const gone = await queue.registerWorker(worker('gone'));
      const other = await queue.registerWorker(worker('other'));
      const [q] = await queue.openQueues('gone');
      const job = (await queue.take(gone, q))!;
      expect(await queue.take(other, q)).toBeUndefined();
      await queue.stopWorker(gone, 'stopped by its operator');
      const again = (await queue.take(other, q))!;
      expect([again.id, again.attempt, again.scrambleIds]).toEqual([job.id, 1, job.scrambleIds]);
      expect(await queue.complete(gone, job)).toBe(false);
      expect(await queue.heartbeat(gone, [], liveness)).toBe(false);
      expect(await queue.complete(other, again)).toBe(true);
      expect((await queue.listWorkers(liveness)).map((w) => w.name)).toEqual(['other']);
    });

    it('work queue - hands each job to one worker; completing it leaves nothing to take', async () => {
      const { id, s } = await matchWith(4);
      const added = await queue.enqueue(
        id,
        ['a', 'b'].flatMap((bot) => [{ bot, scrambleIds: [s[0].id, s[1].id] }, { bot, scrambleIds: [s[2].id, s[3].id] }]),
        { leaseSeconds: 60 },
      );
      expect(added).toBe(4);
      const w1 = await queue.registerWorker(worker('w1'));
      const w2 = await queue.registerWorker(worker('w2'));
      const queues = await queue.openQueues('w1');
      expect(queues.map((q) => q.bot)).toEqual(['a', 'b']);
      const qa = queues[0];
      const [j1, j2, j3] = await Promise.all([queue.take(w1, qa), queue.take(w2, qa), queue.take(w1, qa)]);
      const taken = [j1, j2, j3].filter((j) => j !== undefined);
      expect(taken).toHaveLength(2);
      expect(new Set(taken.map((j) => j!.id)).size).toBe(2);
      expect(taken.map((j) => j!.scrambleIds.length)).toEqual([2, 2]);
      expect(taken.every((j) => j!.bot === 'a' && j!.matchId === id && j!.attempt === 0)).toBe(true);

      const held = await queue.listWorkers(liveness);
      expect(held.map((w) => [w.name, w.cpu, w.jobs.length]).sort()).toEqual(
        [['w1', 'test cpu', taken.filter((j) => j === j1 || j === j3).length], ['w2', 'test cpu', j2 ? 1 : 0]].sort(),
      );
      for (const j of taken) {
        const owner = held.find((w) => w.jobs.some((h) => h.jobId === j!.id))!;
        expect(await queue.complete(owner.id, j!)).toBe(true);
      }
      expect(await queue.take(w1, qa)).toBeUndefined();
      const jobs = await queue.matchJobs(id, liveness);
      expect(jobs).toMatchObject({ queued: 2, active: 0, completed: 2, failed: 0, liveWorkers: ['w1', 'w2'] });
    });

    it('work queue - a refusing worker stops seeing that bot of that match; others still take it', async () => {
      const first = await matchWith(1, ['a', 'b']);
      const second = await matchWith(1, ['a']);
      await queue.enqueue(first.id, [{ bot: 'a', scrambleIds: [first.s[0].id] }, { bot: 'b', scrambleIds: [first.s[0].id] }], { leaseSeconds: 60 });
      await queue.enqueue(second.id, [{ bot: 'a', scrambleIds: [second.s[0].id] }], { leaseSeconds: 60 });
      const w1 = await queue.registerWorker(worker('w1'));
      const w2 = await queue.registerWorker(worker('w2'));
      const qa = (await queue.openQueues('w1')).find((q) => q.matchId === first.id && q.bot === 'a')!;
      const job = (await queue.take(w1, qa))!;
      await queue.refuse('w1', first.id, 'a', 'cannot start: no such file');
      await queue.giveBack(w1, job, 'cannot start bot a');
      expect((await queue.openQueues('w1')).map((q) => [q.matchId, q.bot])).toEqual([
        [first.id, 'b'],
        [second.id, 'a'],
      ]);
      expect((await queue.openQueues('w2')).map((q) => [q.matchId, q.bot])).toHaveLength(3);
      const back = (await queue.take(w2, qa))!;
      expect(back.id).toBe(job.id);
      const jobs = await queue.matchJobs(first.id, liveness);
      expect(jobs?.refusals).toEqual([{ bot: 'a', worker: 'w1', reason: 'cannot start: no such file' }]);
      expect(await queue.matchJobs(9999, liveness)).toBeUndefined();
    });

    it('work queue - a job out of retries is failed with its reason', async () => {
      const { id, s } = await matchWith(1, ['a']);
      await queue.enqueue(id, [{ bot: 'a', scrambleIds: [s[0].id] }], { leaseSeconds: 60, retryLimit: 1 });
      const w = await queue.registerWorker(worker('w'));
      const [q] = await queue.openQueues('w');
      await queue.giveBack(w, (await queue.take(w, q))!, 'first');
      await queue.giveBack(w, (await queue.take(w, q))!, 'second');
      expect(await queue.take(w, q)).toBeUndefined();
      expect(await queue.matchJobs(id, liveness)).toMatchObject({ queued: 0, failed: 1, failures: ['second'] });
    });

    it('work queue - oracle jobs hold a complete match back until they are settled; withdrawing drops what waits', async () => {
      const { id, s } = await matchWith(1, ['a']);
      await queue.enqueue(id, [{ bot: 'a', scrambleIds: [s[0].id] }], { leaseSeconds: 60 });
      await queue.enqueue(id, [{ task: 'optima', scrambleIds: [s[0].id] }], { leaseSeconds: 60 });
      const w = await queue.registerWorker(worker('w'));
      const queues = await queue.openQueues('w');
      expect(queues.map((q) => q.task)).toEqual(['play', 'optima']);
      await queue.complete(w, (await queue.take(w, queues[0]))!);
      await store.recordResult({ scrambleId: s[0].id, bot: 'a', verdict: 'solved', moveCount: 3, moves: 'ACABCB', wallMs: 1 });
      expect(await queue.finishIfComplete(id)).toBe(false);
      const optima = (await queue.take(w, queues[1]))!;
      expect(await queue.finishIfComplete(id)).toBe(false);
      expect(await queue.complete(w, optima)).toBe(true);
      expect(await queue.matchJobs(id, liveness)).toMatchObject({ queued: 0, active: 0, completed: 2 });
      expect(await queue.finishIfComplete(id)).toBe(true);

      const other = await matchWith(2, ['a']);
      await queue.enqueue(other.id, other.s.map((x) => ({ bot: 'a', scrambleIds: [x.id] })), { leaseSeconds: 60 });
      expect(await queue.matchJobs(other.id, liveness)).toMatchObject({ queued: 2 });
      await queue.cancelMatch(other.id);
      expect(await queue.matchJobs(other.id, liveness)).toMatchObject({ queued: 0 });
    });

    it('work queue - a match is finished once every scramble has a result from every bot', async () => {
      const { id, s } = await matchWith(2, ['a', 'b']);
      await queue.enqueue(id, [{ bot: 'a', scrambleIds: s.map((x) => x.id) }], { leaseSeconds: 60 });
      const put = (scrambleId: number, bot: string) => store.recordResult({ scrambleId, bot, verdict: 'solved', moveCount: 3, moves: 'ACABCB', wallMs: 1 });
      await put(s[0].id, 'a');
      await put(s[1].id, 'a');
      await put(s[0].id, 'b');
      expect(await queue.doneScrambles('a', s.map((x) => x.id))).toEqual(new Set([s[0].id, s[1].id]));
      expect(await queue.doneScrambles('b', s.map((x) => x.id))).toEqual(new Set([s[0].id]));
      expect(await queue.finishIfComplete(id)).toBe(false);
      await put(s[1].id, 'b');
      // A worker's cheap check: the job still waits, so it does not count results yet.
      expect(await queue.finishIfComplete(id, { unlessQueued: true })).toBe(false);
      expect((await store.getMatch(id))?.status).toBe('running');
      expect(await queue.finishIfComplete(id)).toBe(true);
      expect((await store.getMatch(id))?.status).toBe('finished');
      expect(await queue.openQueues('w')).toEqual([]);
    });
  });
}
