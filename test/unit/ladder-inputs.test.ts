/**
 * The ladder's inputs: classes as people write them, versions as the hash of a folder and a command, and
 * ratings per version from the results of ladder games only.
 */
import { mkdirSync, rmSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResolvedBot } from '../../src/app/bots/bot-registry.ts';
import { DEFAULT_LADDER_CLASSES, parseLadderClass, parseLadderClasses } from '../../src/app/ladder/ladder-classes.ts';
import { relabel } from '../../src/app/ladder/ladder-ratings.ts';
import { boardsOf, boardsOfContributions } from '../helpers/ladder-oracle.ts';
import { versionOf } from '../../src/app/ladder/ladder-versions.ts';
import { contributionOf, rowsByMatch } from '../../src/stats/ladder-tallies.ts';
import { columnsOf } from '../../src/core/summary-columns.ts';
import type { LadderGame } from '../../src/store/ladder-types.ts';

describe('ladder inputs', () => {
  it('parseLadderClass - every default class, hanoi random goals, and one-line refusals', () => {
    const all = parseLadderClasses(undefined);
    expect(all.ok && all.value.map((c) => c.name)).toEqual(DEFAULT_LADDER_CLASSES);
    expect(parseLadderClass('sliding 3x3')).toMatchObject({ ok: true, value: { spec: { kind: 'sliding', rows: 3, cols: 3 } } });
    expect(parseLadderClass('hanoi 12')).toMatchObject({ ok: true, value: { spec: { kind: 'hanoi', discs: 12 } } });
    expect(parseLadderClass('warehouse 16')).toMatchObject({ ok: true, value: { spec: { kind: 'warehouse', size: 16 } } });
    expect(parseLadderClass(' hanoi  8 random-goal ')).toMatchObject({ ok: true, value: { name: 'hanoi 8 random-goal', spec: { randomGoal: true } } });
    expect(parseLadderClass('sliding')).toMatchObject({ ok: false, reason: expect.stringMatching(/needs a kind and a size/) });
    expect(parseLadderClass('cube 3x3')).toMatchObject({ ok: false, reason: expect.stringMatching(/unknown kind cube/) });
    expect(parseLadderClass('warehouse 15')).toMatchObject({ ok: false, reason: expect.stringMatching(/perfect square/) });
    const dup = parseLadderClasses(['sliding 3x3', 'sliding  3x3']);
    expect(dup.ok && dup.value).toHaveLength(1);
  });

  it('versionOf - the hash follows the files and the command, not the folder name; a registered bot follows its snapshot, not its live folder', () => {
    const base = mkdtempSync(join(tmpdir(), 'arena-ladder-version-'));
    const a = join(base, 'a');
    const b = join(base, 'b');
    for (const dir of [a, b]) {
      mkdirSync(join(dir, 'lib'), { recursive: true });
      writeFileSync(join(dir, 'bot.py'), 'print(1)\n');
      writeFileSync(join(dir, 'lib', 'x.py'), 'x = 1\n');
    }
    const bot = (cwd: string, args = ['bot.py']): ResolvedBot => ({ name: 'mine', source: 'command', command: 'python3', args, cwd });
    const hash = (r: ReturnType<typeof versionOf>) => (r.ok ? r.value.hash : r.reason);
    const first = hash(versionOf(bot(a), '/'));
    expect(hash(versionOf(bot(b), '/'))).toBe(first);
    const played = (snap: string): ResolvedBot => ({ ...bot(a), snapshot: { hash: snap, path: '/nowhere', rivals: [] } });
    const pinned = hash(versionOf(played('1'.repeat(64)), '/'));
    writeFileSync(join(a, 'added-at-start.txt'), 'churn');
    expect(hash(versionOf(played('1'.repeat(64)), '/'))).toBe(pinned);
    expect(hash(versionOf(played('2'.repeat(64)), '/'))).not.toBe(pinned);
    expect(hash(versionOf(bot(a), '/'))).not.toBe(first);
    rmSync(join(a, 'added-at-start.txt'));
    expect(hash(versionOf(bot(a), '/'))).toBe(first);
    expect(hash(versionOf(bot(a, ['bot.py', '--fast']), '/'))).not.toBe(first);
    writeFileSync(join(a, 'lib', 'x.py'), 'x = 2\n');
    expect(hash(versionOf(bot(a), '/'))).not.toBe(first);
    expect(versionOf({ name: 'far', source: 'remote', args: [] }, '/')).toMatchObject({ ok: false, reason: expect.stringMatching(/remote: the ladder cannot start it/) });
    const v = versionOf(bot(a), '/');
    expect(v.ok && v.value).toMatchObject({ bot: 'mine', command: 'python3 bot.py', folder: a });
  });

  it('relabel - keeps only ladder games, each bot named by the version it played as', () => {
    const row = (scrambleId: number, matchId: number, bot: string, moveCount: number) => ({
      scrambleId, matchId, bot, puzzleClass: 'sliding 3x3', verdict: 'solved' as const, moveCount, wallMs: 5, bound: { lowerBound: 10 },
    });
    const c = columnsOf([row(1, 1, 'x', 20), row(1, 1, 'y', 22), row(2, 2, 'x', 20), row(2, 2, 'y', 24), row(3, 3, 'x', 30), row(3, 3, 'y', 20)]);
    const game = (id: number, matchId: number, x: number): LadderGame => ({
      id, seed: `s${id}`, puzzleClass: 'sliding 3x3', purpose: 'placement', entries: [{ bot: 'x', versionId: x }, { bot: 'y', versionId: 9 }], why: '', matchId, createdAt: '',
    });
    // Match 3 is no ladder game; x played match 1 as version 1 and match 2 as version 2.
    const games = [game(1, 1, 1), game(2, 2, 2)];
    const out = relabel(c, games);
    expect(out.length).toBe(4);
    expect([...out.bot].map((i) => out.bots[i])).toEqual(['1', '9', '2', '9']);
    const boards = boardsOf(c, games).get('sliding 3x3')!;
    expect([...boards.keys()].sort()).toEqual([1, 2, 9]);
    expect(boards.get(1)!.games).toBe(1);
    expect(boards.get(9)!.games).toBe(2);
  });

  it('boardsOfContributions - game by game, the same ratings as the leaderboard fit of every result', () => {
    const rows = [];
    const games: LadderGame[] = [];
    let sid = 0;
    // Six games among three versions of bots x, y, z, with wins, draws (equal moves and times) and an unsupported result.
    for (let m = 1; m <= 6; m++) {
      const [a, b] = [['x', 'y'], ['y', 'z'], ['x', 'z']][m % 3]!;
      games.push({ id: m, seed: `s${m}`, puzzleClass: 'sliding 3x3', purpose: 'upkeep', entries: [{ bot: a!, versionId: a!.charCodeAt(0) }, { bot: b!, versionId: b!.charCodeAt(0) }], why: '', matchId: m, createdAt: '' });
      for (let i = 0; i < 5; i++) {
        sid++;
        const verdict = m === 4 && i === 0 ? ('unsupported' as const) : ('solved' as const);
        rows.push({ scrambleId: sid, matchId: m, bot: a!, puzzleClass: 'sliding 3x3', verdict, moveCount: 20 + ((m + i) % 3), wallMs: 5, bound: { lowerBound: 10 } });
        rows.push({ scrambleId: sid, matchId: m, bot: b!, puzzleClass: 'sliding 3x3', verdict: 'solved' as const, moveCount: 21, wallMs: 5, bound: { lowerBound: 10 } });
      }
    }
    const c = columnsOf(rows);
    const whole = boardsOf(c, games).get('sliding 3x3')!;
    const byMatch = rowsByMatch(c, new Set(games.map((g) => g.matchId!)));
    const incremental = boardsOfContributions(games.map((g) => contributionOf(g, byMatch.get(g.matchId!)!))).get('sliding 3x3')!;
    expect([...incremental.keys()].sort()).toEqual([...whole.keys()].sort());
    for (const [id, r] of whole) {
      const i = incremental.get(id)!;
      expect(i.rating).toBeCloseTo(r.rating, 9);
      expect([i.low, i.high, i.games, i.results, i.solveRate]).toEqual([expect.closeTo(r.low, 9), expect.closeTo(r.high, 9), r.games, r.results, r.solveRate]);
    }
  });
});
