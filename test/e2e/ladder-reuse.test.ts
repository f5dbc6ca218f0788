/**
 * `arena ladder` keeps the bots of a pairing for its next game (built-in bots say `reuse` through the SDK),
 * and Ctrl-C leaves no process behind: every process the ladder started (bwrap, the bots, kept or playing)
 * is gone once it has exited. Real processes, real bwrap, a real SQLite file.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CAN_SANDBOX } from '../helpers/sandbox.ts';
import { spawnArena, waitFor } from './helpers.ts';
import { reader, startLadder } from './ladder-helpers.ts';

/** Two built-in bots placed against each other over eight games of the same pairing. */
const FLAGS = ['--puzzle', 'sliding 3x3', '--bot', 'constructive', '--bot', 'dijkstra', '--scrambles', '2', '--min-games', '8', '--max-games', '8', '--budget', '0', '--seed', 'reuse', '--time-limit', '5s', '--poll', '300ms'];

/** A process as (pid, start time): a pid alone may be reused by another process. */
type Proc = `${number}@${string}`;

function startOf(pid: number): string | undefined {
  try {
    // Field 22 of /proc/<pid>/stat, counted after the command's closing parenthesis.
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Every live descendant of `root`. */
function descendants(root: number): Proc[] {
  const out: Proc[] = [];
  const walk = (pid: number): void => {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      return;
    }
    for (const t of tasks) {
      let kids: string;
      try {
        kids = readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const k of kids.trim().split(/\s+/).filter(Boolean).map(Number)) {
        const s = startOf(k);
        if (s !== undefined) out.push(`${k}@${s}`);
        walk(k);
      }
    }
  };
  walk(root);
  return out;
}

const alive = (p: Proc): boolean => {
  const [pid, start] = p.split('@');
  return startOf(Number(pid)) === start;
};

describe('ladder e2e - bots kept between games', () => {
  const children: ReturnType<typeof spawnArena>[] = [];
  afterAll(() => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  });

  it.skipIf(!CAN_SANDBOX)('ladder - Ctrl-C between games of one pairing leaves no process behind', { timeout: 600_000 }, async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'arena-ladder-reuse-')), 'ladder.db');
    const run = startLadder(db, FLAGS, children);
    const ctx = await reader(db);
    let seen: Proc[] = [];
    try {
      // Once a game is over, the pairing's next game is the same one: its bots are kept, or already playing.
      const finished = await waitFor(async () => {
        seen = [...new Set([...seen, ...descendants(run.child.pid!)])];
        const games = await ctx.store.ladder().listGames({ limit: 10 });
        const over = await Promise.all(games.map(async (g) => g.matchId !== undefined && (await ctx.store.getMatch(g.matchId))?.status === 'finished'));
        return over.filter(Boolean).length >= 1;
      }, 300_000);
      expect(finished, run.log()).toBe(true);
    } finally {
      await ctx.close();
    }
    const now = descendants(run.child.pid!);
    // Its bots (kept between games or playing; under load the poll may see the ladder between the two).
    expect([...seen, ...now].length, 'the ladder started processes').toBeGreaterThan(0);
    run.child.kill('SIGINT');
    const done = await run.done;
    expect(done.code, done.stderr).toBe(0);
    const left = () => [...new Set([...seen, ...now])].filter(alive);
    expect(await waitFor(() => left().length === 0, 2_000), `left behind: ${left().join(', ')}`).toBe(true);
  });
});
