/**
 * The player hands each bot's stderr to the match it was written in: a bot process that plays jobs of two
 * matches (a worker) has its text split between them at the switch, a restarted bot's processes are all
 * kept (joined by the store), and what is left when the player stops is kept too.
 */
import { describe, expect, it } from 'vitest';
import { capText } from '../../src/core/capped-text.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { ok } from '../../src/core/types.ts';
import type { BotLauncher, BotLink } from '../../src/protocol/link.ts';
import type { Job, JobSource } from '../../src/referee/job-source.ts';
import { runPlayer } from '../../src/referee/player.ts';
import { StartGuard } from '../../src/referee/start-guard.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { slidingBoard } from '../helpers/boards.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { dropOnSolve, replyWith, ScriptedLauncher, type ConnectPlan, type ScriptedLink } from '../helpers/scripted-link.ts';

const boards = ['LU', 'LLUR', 'ULDR'].map((p) => slidingBoard(3, 3, p));
const solve = (s: PuzzleState) => boards.find((b) => JSON.stringify(b.state) === JSON.stringify(s))!.solution;

/** Scripted links that "write" one stderr line per solve they are sent: `start <n> solve <k>`. */
function noisy(inner: ScriptedLauncher): BotLauncher {
  let starts = 0;
  return {
    name: inner.name,
    async connect() {
      const got = await inner.connect();
      if (!got.ok) return got;
      const link = got.value as ScriptedLink;
      const start = ++starts;
      let told = 0;
      const wrapped: BotLink = {
        hello: link.hello,
        get closed() {
          return link.closed;
        },
        send: (m) => link.send(m),
        onEvent: (l) => link.onEvent(l),
        close: (r) => link.close(r),
        takeStderr: async () => {
          const solves = link.sentOf('solve').length;
          const text = Array.from({ length: solves - told }, (_, i) => `start ${start} solve ${told + i + 1}\n`).join('');
          told = solves;
          return text ? capText(text) : undefined;
        },
      };
      return ok(wrapped);
    },
    dispose: () => inner.dispose(),
  };
}

async function setup() {
  const store = createMemoryStore();
  const make = () =>
    store.createMatch({
      config: null,
      seed: 's',
      generatorVersion: 'g',
      bots: ['a'],
      scrambles: boards.map((b, index) => ({ index, state: b.state, puzzleClass: 'sliding 3x3', bound: { lowerBound: 1 } })),
    });
  const [m1, m2] = [await make(), await make()];
  const limits = { timeLimitMs: 1000, maxMoves: 100, startTimeoutMs: 1000 };
  const job = async (matchId: number): Promise<Job> => ({ matchId, bot: 'a', scrambles: await store.listScrambles(matchId), limits });
  return { store, m1, m2, job };
}

function listSource(jobs: Job[]): JobSource {
  const queue = [...jobs];
  return { next: async () => queue.shift(), end: async () => undefined };
}

const text = (store: ReturnType<typeof createMemoryStore>, matchId: number) => store.stderrs().read(matchId, 'a').then((t) => t?.head);

describe('referee player - stderr', () => {
  it('player stderr - one process playing two matches: each match keeps what was written while it played', async () => {
    const { store, m1, m2, job } = await setup();
    const clock = new FakeClock();
    const keepStderr = (matchId: number, bot: string, t: ReturnType<typeof capText>) => store.stderrs().append(matchId, bot, t);
    const launcher = new ScriptedLauncher('a', () => replyWith(solve), { clock });
    const source = listSource([await job(m1.id), await job(m2.id), await job(m1.id)]);
    await clock.run(runPlayer(source, { store, clock, makeLauncher: () => noisy(launcher), starts: new StartGuard(), keepStderr }));
    expect(launcher.connects).toBe(1);
    expect(await text(store, m1.id)).toBe(['start 1 solve 1', 'start 1 solve 2', 'start 1 solve 3', 'start 1 solve 7', 'start 1 solve 8', 'start 1 solve 9', ''].join('\n'));
    expect(await text(store, m2.id)).toBe(['start 1 solve 4', 'start 1 solve 5', 'start 1 solve 6', ''].join('\n'));
  });

  it('player stderr - a bot restarted after a crash: both processes\' stderr is kept, in order', async () => {
    const { store, m1, job } = await setup();
    const clock = new FakeClock();
    const keepStderr = (matchId: number, bot: string, t: ReturnType<typeof capText>) => store.stderrs().append(matchId, bot, t);
    const plan = (attempt: number): ConnectPlan => (attempt === 0 ? [replyWith(solve), dropOnSolve()] : replyWith(solve));
    const launcher = new ScriptedLauncher('a', plan, { clock });
    await clock.run(runPlayer(listSource([await job(m1.id)]), { store, clock, makeLauncher: () => noisy(launcher), starts: new StartGuard(), keepStderr }));
    expect(launcher.connects).toBe(2);
    expect(await text(store, m1.id)).toBe(['start 1 solve 1', 'start 1 solve 2', 'start 2 solve 1', ''].join('\n'));
  });

  it('player stderr - without keepStderr nothing is taken or kept', async () => {
    const { store, m1, job } = await setup();
    const clock = new FakeClock();
    const launcher = new ScriptedLauncher('a', () => replyWith(solve), { clock });
    await clock.run(runPlayer(listSource([await job(m1.id)]), { store, clock, makeLauncher: () => noisy(launcher), starts: new StartGuard() }));
    expect(await store.stderrs().bots(m1.id)).toEqual([]);
  });
});

describe('referee player - stderr on a worker', () => {
  it('player stderr - keepStderrEachJob: each job\'s stderr is kept as the job ends, while the process lives on', async () => {
    const { store, m1, job } = await setup();
    const clock = new FakeClock();
    const seen: string[] = [];
    const keepStderr = async (matchId: number, bot: string, t: ReturnType<typeof capText>) => {
      seen.push(t.head);
      await store.stderrs().append(matchId, bot, t);
    };
    const launcher = new ScriptedLauncher('a', () => replyWith(solve), { clock });
    const source = listSource([await job(m1.id), await job(m1.id)]);
    await clock.run(runPlayer(source, { store, clock, makeLauncher: () => noisy(launcher), starts: new StartGuard(), keepStderr, keepStderrEachJob: true }));
    expect(launcher.connects).toBe(1);
    expect(seen).toEqual([['start 1 solve 1', 'start 1 solve 2', 'start 1 solve 3', ''].join('\n'), ['start 1 solve 4', 'start 1 solve 5', 'start 1 solve 6', ''].join('\n')]);
  });
});
