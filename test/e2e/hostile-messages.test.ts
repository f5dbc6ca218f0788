/**
 * The hostile suite: bots that send what no bot should, over a real WebSocket server and real stdio pipes,
 * spawned as real processes, with results in a real SQLite file. Each case names the verdict it must get;
 * after every case the referee is still running (the match finishes) and every other result is stored.
 */
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import type { Verdict } from '../../src/core/verdict.ts';
import type { BotLauncher } from '../../src/protocol/link.ts';
import { puzzles } from '../../src/puzzles/index.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { runNewMatch } from '../../src/referee/run-match.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { ResultRow } from '../../src/store/types.ts';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { createProcessLauncher } from '../../src/transport/process/process-launcher.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';
import { fixtureLauncher, ROOT, spawnArena } from './helpers.ts';
import { confinedIfAble } from '../helpers/sandbox.ts';

type Over = 'ws' | 'stdio';

interface Case {
  readonly act: string;
  readonly over: readonly Over[];
  /** Verdicts of scramble 0 (where the bot misbehaves) and scramble 1 (a fresh or the same bot, behaving). */
  readonly verdicts: readonly [Verdict, Verdict];
  /** Processes started: 2 when the misbehaviour ended the link, 1 when the link rightly survived it. */
  readonly starts: number;
  /** What the reason of scramble 0 must say. */
  readonly reason?: RegExp;
}

const BOTH: readonly Over[] = ['ws', 'stdio'];
const CASES: readonly Case[] = [
  { act: 'deep-type', over: BOTH, verdicts: ['protocol', 'solved'], starts: 2, reason: /nesting deeper than 8 levels/ },
  { act: 'deep-moves', over: BOTH, verdicts: ['protocol', 'solved'], starts: 2, reason: /nesting deeper than 8 levels/ },
  { act: 'deep-info', over: BOTH, verdicts: ['protocol', 'solved'], starts: 2, reason: /nesting deeper than 8 levels/ },
  { act: 'wide-object', over: BOTH, verdicts: ['protocol', 'solved'], starts: 2, reason: /more than 64 keys/ },
  { act: 'long-key', over: BOTH, verdicts: ['protocol', 'solved'], starts: 2, reason: /key longer than 64/ },
  { act: 'huge-frame', over: BOTH, verdicts: ['protocol', 'solved'], starts: 2, reason: /larger than 4 MiB/ },
  { act: 'invalid-utf8', over: BOTH, verdicts: ['protocol', 'solved'], starts: 2, reason: /not valid UTF-8/ },
  { act: 'binary', over: ['ws'], verdicts: ['protocol', 'solved'], starts: 2, reason: /binary frame/ },
  { act: 'unknown-id', over: BOTH, verdicts: ['protocol', 'solved'], starts: 2, reason: /not open/ },
  { act: 'proto-pollution', over: BOTH, verdicts: ['protocol', 'solved'], starts: 2, reason: /final/ },
  { act: 'hello-again', over: BOTH, verdicts: ['protocol', 'solved'], starts: 2, reason: /unexpected hello/ },
  { act: 'early-answers', over: BOTH, verdicts: ['protocol', 'solved'], starts: 2, reason: /not open/ },
  // A violation after the answer is complete ends the link but costs no verdict: the next scramble gets a fresh bot.
  { act: 'dup-final', over: BOTH, verdicts: ['solved', 'solved'], starts: 2 },
  { act: 'moves-after-final', over: BOTH, verdicts: ['solved', 'solved'], starts: 2 },
  { act: 'answer-then-garbage', over: BOTH, verdicts: ['solved', 'solved'], starts: 2 },
  // Late chunks for a request the referee cancelled are ignored: same bot, next scramble solved.
  { act: 'ignore-cancel', over: BOTH, verdicts: ['invalid', 'solved'], starts: 1 },
  { act: 'ping-flood', over: ['ws'], verdicts: ['protocol', 'solved'], starts: 2, reason: /ping flood/ },
  { act: 'fragmented', over: ['ws'], verdicts: ['solved', 'solved'], starts: 1 },
  { act: 'fragmented-huge', over: ['ws'], verdicts: ['protocol', 'solved'], starts: 2, reason: /larger than 4 MiB/ },
  { act: 'chatty', over: BOTH, verdicts: ['solved', 'solved'], starts: 1 },
  { act: 'close-mid-answer', over: BOTH, verdicts: ['crash', 'solved'], starts: 2 },
  { act: 'long-note', over: BOTH, verdicts: ['protocol', 'solved'], starts: 2, reason: /note/ },
  { act: 'wrong-form', over: BOTH, verdicts: ['invalid', 'solved'], starts: 1 },
  { act: 'moves-after-give-up', over: BOTH, verdicts: ['gave-up', 'solved'], starts: 2 },
  { act: 'runaway', over: BOTH, verdicts: ['invalid', 'solved'], starts: 1, reason: /more than the limit of 1000 moves/ },
];

const loader = pathToFileURL(tsxLoaderPath(ROOT)!).href;
const HOSTILE = join(ROOT, 'test/fixtures/bots/hostile.ts');
/** The hostile bots' own folder, where they count their starts (as root, owned as a contestant's would be). */
const botFolder = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // Each start runs as a uid of its own (of the pool): the folder lets every one of them count its starts.
  if (process.getuid?.() === 0) {
    chownSync(dir, 65534, 65534);
    chmodSync(dir, 0o777);
  }
  return dir;
};
const state = botFolder('arena-hostile-');

let server: ArenaServer;
beforeAll(async () => {
  server = await startArenaServer({ authenticate: () => undefined });
});
afterAll(async () => {
  await server.close();
});

const botName = (over: Over, act: string): string => `${over}-${act}`;

function hostileLauncher(over: Over, act: string): BotLauncher {
  // Each start runs as a uid of its own: the count of starts is a file every one of them may append to.
  const starts = join(state, `${botName(over, act)}.starts`);
  if (!existsSync(starts)) {
    writeFileSync(starts, '');
    chmodSync(starts, 0o666);
  }
  return createProcessLauncher({
    name: botName(over, act),
    command: process.execPath,
    args: ['--import', loader, HOSTILE, act],
    env: { HOSTILE_STATE: state, HOSTILE_KEY: botName(over, act) },
    cwd: state,
    ...confinedIfAble(HOSTILE),
    server,
    stdio: over === 'stdio',
    startTimeoutMs: 60_000,
  });
}

function startsOf(over: Over, act: string): number {
  const file = join(state, `${botName(over, act)}.starts`);
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

const boards = (seed: string): PuzzleState[] => {
  const rng = createRng(seed);
  return [0, 1].map(() => puzzles.sliding.scramble({ kind: 'sliding', rows: 2, cols: 2 }, rng));
};

/** Plays `bots` (plus the well-behaved `instant`) on two 2×2 scrambles; returns the rows read back from the file. */
async function play(label: string, bots: readonly string[], launcher: (bot: string) => BotLauncher): Promise<ResultRow[]> {
  const file = join(mkdtempSync(join(tmpdir(), `arena-${label}-`)), 'results.db');
  const store = openSqliteStore(file);
  const all = ['instant', ...bots];
  const config: MatchConfig = { bots: all, count: 2, seed: label, timeLimitMs: 20_000, maxMoves: 1000, concurrency: 1 };
  const run = await runNewMatch(config, boards(label), { store, clock: systemClock, makeLauncher: (b) => (b === 'instant' ? fixtureLauncher(b, server) : launcher(b)) });
  expect(run.status).toBe('finished');
  await store.close();
  // Reopened: what the referee committed is what a later reader sees.
  const again = openSqliteStore(file);
  try {
    const rows = await again.listResults(run.match.id);
    expect(rows).toHaveLength(all.length * 2);
    expect(new Set(rows.map((r) => `${r.scrambleIndex}/${r.bot}`)).size).toBe(all.length * 2);
    for (const r of rows.filter((x) => x.bot === 'instant')) expect(r.verdict, `instant on scramble ${r.scrambleIndex}`).toBe('solved');
    return rows;
  } finally {
    await again.close();
  }
}

function checkCases(over: Over, rows: readonly ResultRow[]): void {
  for (const c of CASES.filter((x) => x.over.includes(over))) {
    const name = botName(over, c.act);
    const mine = rows.filter((r) => r.bot === name).sort((a, b) => a.scrambleIndex - b.scrambleIndex);
    const seen = mine.map((r) => `${r.verdict}${r.error ? ` (${r.error.slice(0, 160)})` : ''}`);
    expect(mine.map((r) => r.verdict), `${name}: ${seen.join(' | ')}`).toEqual(c.verdicts);
    if (c.reason) expect(mine[0]!.error, name).toMatch(c.reason);
    expect(startsOf(over, c.act), `${name}: processes started`).toBe(c.starts);
  }
}

describe('hostile messages - every case gets its verdict, the referee carries on, every result is stored', () => {
  it.concurrent.each(['ws', 'stdio'] as const)('over %s', async (over) => {
    const cases = CASES.filter((c) => c.over.includes(over));
    const rows = await play(`hostile-${over}`, cases.map((c) => botName(over, c.act)), (bot) => hostileLauncher(over, bot.slice(over.length + 1)));
    checkCases(over, rows);
  }, 300_000);
});

describe('hostile messages - the real referee process', () => {
  it('survives a type nested 100,000 deep over WebSocket and stdio: protocol verdicts, exit 0, every result stored', async () => {
    // This input used to throw a RangeError out of the message handler and end `arena match` (exit 1).
    const db = join(mkdtempSync(join(tmpdir(), 'arena-deep-')), 'arena.db');
    // The hostile bots count their starts in their own folder.
    const folder = botFolder('arena-deep-state-');
    for (const [name, extra] of [['deep-ws', ['--cwd', folder]], ['deep-stdio', ['--stdio', '--cwd', folder]], ['instant', []]] as const) {
      const script = name === 'instant' ? join(ROOT, 'test/fixtures/bots/instant.ts') : `${HOSTILE} deep-type`;
      const r = await spawnArena(['bot', 'add', name, '--cmd', `${process.execPath} --import ${loader} ${script}`, ...extra, '--db', db], {}).done;
      expect(r.code, r.stderr).toBe(0);
    }
    const r = await spawnArena(['match', 'deep-ws', 'deep-stdio', 'instant', '--puzzle', 'sliding', '--size', '2', '--count', '2', '--seed', '3', '--json', '--db', db], {}).done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/RangeError|\n\s+at /);
    const store = openSqliteStore(db);
    try {
      const [match] = await store.listMatches(1);
      const rows = await store.listResults(match!.id);
      expect(rows.map((x) => `${x.bot}/${x.scrambleIndex}/${x.verdict}`).sort()).toEqual([
        'deep-stdio/0/protocol',
        'deep-stdio/1/solved',
        'deep-ws/0/protocol',
        'deep-ws/1/solved',
        'instant/0/solved',
        'instant/1/solved',
      ]);
      for (const x of rows.filter((y) => y.verdict === 'protocol')) expect(x.error).toMatch(/nesting deeper than 8 levels/);
    } finally {
      await store.close();
    }
  }, 180_000);
});
