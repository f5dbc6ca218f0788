/**
 * One bot start for several games, end to end in-process over the app's own match service: a real SQLite
 * file, real processes, real bwrap (where the sandbox tests run), the ladder's keeping (ladder-keeping.ts).
 * A command bot that says `reuse` and misbehaves on a schedule keyed by the scramble (solves, times out,
 * fills its memory, answers an illegal move, crashes: test/fixtures/reuse/reuse-bot.mjs) plays five
 * consecutive games kept between games, and again with a start per game: the verdicts, the time limit of
 * every solve, the kernel limits each start saw and its memory control group's limit are the same, and the
 * kept run really played on one process wherever nothing killed it. An old bot (no `reuse` in its hello)
 * is started per game as before; a kept bot is ended by a game it is not in and by its idle time.
 */
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBot } from '../../src/app/bots/bot-registry.ts';
import { openContext, type OpenContext } from '../../src/app/context.ts';
import { openLadderKeeping, type LadderKeeping } from '../../src/app/ladder/ladder-keeping.ts';
import { startMatch } from '../../src/app/matches/matches.ts';
import { createRng } from '../../src/core/rng.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { puzzles } from '../../src/puzzles/index.ts';
import { warmUpScramble } from '../../src/referee/warm-up.ts';
import { CAN_SANDBOX } from '../helpers/sandbox.ts';
import { ROOT, waitFor } from './helpers.ts';

const MIB = 1024 * 1024;
const MEMORY = 192 * MIB;
const TIME_LIMIT_MS = 1500;
type Act = 'solve' | 'timeout' | 'memory' | 'illegal' | 'crash';
/** Five games of three scrambles: what the bot does with each. */
const GAMES: readonly (readonly Act[])[] = [
  ['solve', 'illegal', 'solve'],
  ['solve', 'solve', 'solve'],
  ['timeout', 'solve', 'memory'],
  ['solve', 'crash', 'solve'],
  ['solve', 'solve', 'solve'],
];
const VERDICT: Record<Act, string> = { solve: 'solved', timeout: 'timeout', memory: 'memory', illegal: 'invalid', crash: 'crash' };

interface Seen {
  readonly verdict: string;
  /** What the start said in its answer's note (absent: no answer). */
  readonly note?: { start: string; timeLimitMs: number; data: string; cpu: string };
}

let ctx: OpenContext;
let base: string;
/** A mark in the bots' command lines, so this test finds its own processes. */
const marker = `reuse-${process.pid}-${Date.now()}`;
let files: string[];

/** What the bot's schedule is keyed by: a board's tiles joined by commas. */
const keyOf = (s: PuzzleState): string => ('tiles' in s ? s.tiles.join() : '');

/** The host pids of this test's bot processes (node running bot.mjs, not the bwrap around it). */
function botPids(mode?: string): number[] {
  const pids: number[] = [];
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (argv[1] === 'bot.mjs' && argv[3] === marker && (mode === undefined || argv[2] === mode)) pids.push(Number(p));
  }
  return pids;
}

/**
 * Whether `pid` is still a live process, read after its group: a killed bot's main thread can be a zombie
 * while its other threads exit, and the kernel then shows it in the root groups (its own is being removed).
 */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false;
  }
}

/** The memory limit of the control group `pid` is in (cgroup v1's memory hierarchy, else v2). */
function memoryLimitOf(pid: number): number | undefined {
  try {
    const lines = readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n');
    const v1 = lines.find((l) => /^\d+:([^:]*,)?memory(,[^:]*)?:/.test(l));
    if (v1) return Number(readFileSync(join('/sys/fs/cgroup/memory', v1.split(':')[2]!, 'memory.limit_in_bytes'), 'utf8'));
    const v2 = lines.find((l) => l.startsWith('0::'));
    for (const root of ['/sys/fs/cgroup/unified', '/sys/fs/cgroup']) {
      const f = join(root, v2!.slice(3), 'memory.max');
      if (v2 && existsSync(f)) return Number(readFileSync(f, 'utf8'));
    }
  } catch {
    // Gone between the listing and the read.
  }
  return undefined;
}

/** Plays the games with `bot`, kept between games by `keeping` (or started per game); what each scramble got. */
async function playGames(bot: string, games: readonly string[], keeping: LadderKeeping | undefined, limits: Set<number>): Promise<Seen[][]> {
  const out: Seen[][] = [];
  for (const file of games) {
    await keeping?.before([{ bot, versionId: 1 }, { bot: 'rival', versionId: 2 }]);
    const played = await startMatch(
      ctx,
      { bots: [bot], scrambles: { file }, timeLimitMs: TIME_LIMIT_MS, memoryLimitBytes: MEMORY, seed: 'reuse' },
      {
        ...(keeping ? { keep: keeping.keep } : {}),
        // The control group of each live start, read on the host while the game plays.
        onResult: () => botPids().forEach((p) => ((l) => l !== undefined && alive(p) && limits.add(l))(memoryLimitOf(p))),
      },
    );
    if (!played.ok) throw new Error(played.reason);
    const rows = await ctx.store.listResults(played.value.run.match.id);
    out.push(rows.sort((a, b) => a.scrambleIndex - b.scrambleIndex).map((r) => ({ verdict: r.verdict, ...(r.note ? { note: JSON.parse(r.note) as Seen['note'] } : {}) })));
  }
  return out;
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'arena-reuse-'));
  const dir = mkdtempSync(join(tmpdir(), 'arena-reuse-bot-'));
  copyFileSync(join(ROOT, 'test/fixtures/reuse/reuse-bot.mjs'), join(dir, 'bot.mjs'));
  // Fifteen distinct 2x3 scrambles, one file per game, and the schedule keyed by each.
  const sliding = puzzles.sliding;
  const spec = sliding.normalizeSpec({ kind: 'sliding', rows: 2, cols: 3 });
  if (!spec.ok) throw new Error(spec.reason);
  const rng = createRng('reuse-e2e');
  // Never the referee's untimed warm-up scramble (the first or, for that one, the second of its class).
  const first = warmUpScramble(sliding.goal(spec.value))!;
  const warmUps = new Set([first, warmUpScramble(first)!].map((s) => keyOf(s)));
  const states = new Map<string, PuzzleState>();
  while (states.size < GAMES.flat().length) {
    const s = sliding.scramble(spec.value, rng);
    if (!warmUps.has(keyOf(s))) states.set(keyOf(s), s);
  }
  const all = [...states.values()];
  const schedule: Record<string, Act> = {};
  files = GAMES.map((acts, g) => {
    const game = all.slice(g * 3, g * 3 + 3);
    game.forEach((s, i) => (schedule[keyOf(s)] = acts[i]!));
    const file = join(base, `game-${g + 1}.jsonl`);
    writeFileSync(file, game.map((s) => JSON.stringify(s)).join('\n') + '\n');
    return file;
  });
  writeFileSync(join(dir, 'schedule.json'), JSON.stringify(schedule));
  if (process.getuid?.() === 0) {
    // As a contestant's folder would be: given to nobody, open to the uid each start runs as.
    for (const f of ['bot.mjs', 'schedule.json']) chownSync(join(dir, f), 65534, 65534);
    chownSync(dir, 65534, 65534);
    chmodSync(dir, 0o777);
  }
  const opened = await openContext({ db: join(base, 'arena.db'), seal: { claim: true } });
  if (!opened.ok) throw new Error(opened.reason);
  ctx = opened.value;
  for (const [name, mode] of [['reuser', 'reuse'], ['oldie', 'old']] as const) {
    const added = await addBot(ctx, { name, cmd: `${process.execPath} bot.mjs ${mode} ${marker}`, cwd: dir, stdio: true });
    if (!added.ok) throw new Error(added.reason);
  }
});

afterAll(async () => {
  await ctx?.close();
  for (const p of botPids()) process.kill(p, 'SIGKILL');
});

describe('bot reuse e2e - one start for several games', () => {
  it.skipIf(!CAN_SANDBOX)('bot reuse - a bot kept between games gets exactly the verdicts and limits of a start per game, on one process where nothing killed it', { timeout: 600_000 }, async () => {
    const keptLimits = new Set<number>();
    const keeping = await openLadderKeeping(ctx, 60_000);
    let kept: Seen[][];
    try {
      kept = await playGames('reuser', files, keeping, keptLimits);
      // The last game ended healthy: its bot is kept, alive, until a game comes that it is not in.
      expect(keeping.keep.keeper.size).toBe(1);
      expect(botPids('reuse')).toHaveLength(1);
      await keeping.before([{ bot: 'rival', versionId: 2 }, { bot: 'other', versionId: 3 }]);
      expect(await waitFor(() => botPids('reuse').length === 0, 10_000)).toBe(true);
    } finally {
      await keeping.close();
    }
    const freshLimits = new Set<number>();
    const fresh = await playGames('reuser', files, undefined, freshLimits);

    const verdicts = (games: Seen[][]) => games.map((g) => g.map((s) => s.verdict));
    expect(verdicts(kept)).toEqual(GAMES.map((acts) => acts.map((a) => VERDICT[a])));
    expect(verdicts(fresh)).toEqual(verdicts(kept));
    // The limits every solve saw: its time limit, and the kernel's limits on the start that played it.
    const limits = (games: Seen[][]) => games.map((g) => g.map((s) => (s.note ? { t: s.note.timeLimitMs, data: s.note.data, cpu: s.note.cpu } : null)));
    expect(limits(kept)).toEqual(limits(fresh));
    expect(kept.flat().filter((s) => s.note).every((s) => s.note!.timeLimitMs === TIME_LIMIT_MS)).toBe(true);
    expect([...keptLimits]).toEqual([MEMORY]);
    expect([...freshLimits]).toEqual([MEMORY]);

    // Which start played each answered scramble: one process until something killed it.
    const starts = (games: Seen[][]) => games.map((g) => g.map((s) => s.note?.start ?? null));
    const k = starts(kept);
    const [s1, s2, s3, s4] = [k[0]![0], k[2]![1], k[3]![0], k[3]![2]];
    expect(k).toEqual([
      [s1, null, s1], // the illegal answer's note is not kept; the bot plays on
      [s1, s1, s1], // the next game on the same start
      [null, s2, null], // killed at its time-out, started again, killed for memory
      [s3, null, s4], // nothing kept after a kill: a new start, then a crash and another
      [s4, s4, s4],
    ]);
    expect(new Set([s1, s2, s3, s4]).size).toBe(4);
    // A start per game: no two games share one.
    const f = starts(fresh).map((g) => new Set(g.filter((s) => s !== null)));
    for (let a = 0; a < f.length; a++) for (let b = a + 1; b < f.length; b++) expect([...f[a]!].filter((s) => f[b]!.has(s))).toEqual([]);
  });

  it.skipIf(!CAN_SANDBOX)('bot reuse - an old bot (no reuse in its hello) is started per game, and a kept bot is ended when idle', { timeout: 300_000 }, async () => {
    const honest = [files[1]!, files[4]!];
    const keeping = await openLadderKeeping(ctx, 60_000);
    try {
      const old = await playGames('oldie', honest, keeping, new Set());
      expect(old.flat().map((s) => s.verdict)).toEqual(Array(6).fill('solved'));
      const [a, b] = old.map((g) => new Set(g.map((s) => s.note!.start)));
      expect(a!.size).toBe(1);
      expect(b!.size).toBe(1);
      expect([...a!][0]).not.toBe([...b!][0]);
      expect(keeping.keep.keeper.size).toBe(0);
      expect(botPids('old')).toEqual([]);
    } finally {
      await keeping.close();
    }
    const brief = await openLadderKeeping(ctx, 500);
    try {
      await playGames('reuser', [files[1]!], brief, new Set());
      expect(brief.keep.keeper.size).toBe(1);
      expect(await waitFor(() => brief.keep.keeper.size === 0 && botPids('reuse').length === 0, 20_000)).toBe(true);
    } finally {
      await brief.close();
    }
  });
});
