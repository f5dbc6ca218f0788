import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditDatabase } from '../../src/app/audit/audit.ts';
import type { AppContext } from '../../src/app/context.ts';
import { puzzleOf } from '../../src/puzzles/index.ts';
import { parseSprt } from '../../src/stats/sprt.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { keyCheck } from '../../src/store/seal.ts';
import type { Store } from '../../src/store/types.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { slidingBoard } from '../helpers/boards.ts';

// The audit service in-process, on a memory store sealed with a key file of the test's own: the cases the
// CLI tests do not reach (a purge, an SPRT that stopped early or did not, a bound an answer beats).

const INVERSE: Record<string, string> = { U: 'D', D: 'U', L: 'R', R: 'L' };
const boards = ['LU', 'LLUR', 'ULDR', 'LLUURD', 'UULDRD', 'LURDLU', 'ULDRUL', 'LLURDR'].map((p) => slidingBoard(3, 3, p));

async function sealedContext(): Promise<{ ctx: AppContext; store: Store; keyFile: string }> {
  const store = createMemoryStore();
  const key = randomBytes(32);
  const meta = await store.claimSealKey(keyCheck(key));
  store.sealWith({ key, dbId: meta.dbId });
  // As setUpSealing does once the key is claimed: the head (key check, watermark) is sealed too.
  await store.sealHead({ key, dbId: meta.dbId });
  const keyFile = join(mkdtempSync(join(tmpdir(), 'arena-audit-unit-')), 'db.key');
  writeFileSync(keyFile, key.toString('hex'), { mode: 0o600 });
  return { ctx: { store, dbLocation: ':memory:', projectRoot: '.', clock: systemClock }, store, keyFile };
}

/** A finished file match of `n` boards (`play` of them played) between a (the known solution) and b (two moves longer). */
async function playMatch(store: Store, n: number, extra: Record<string, unknown> = {}, play = n) {
  const config = { bots: ['a', 'b'], count: n, seed: 'unit', timeLimitMs: 1000, maxMoves: 100, concurrency: 1, scrambleFile: 'boards.jsonl', ...extra };
  const scrambles = boards.slice(0, n).map((b, index) => ({ index, state: b.state, puzzleClass: 'sliding 3x3', bound: puzzleOf(b.state).bound(b.state) }));
  const m = await store.createMatch({ config, seed: 'unit', generatorVersion: 'g', bots: ['a', 'b'], scrambles });
  const stored = await store.listScrambles(m.id);
  for (const [i, s] of stored.slice(0, play).entries()) {
    await store.recordResult({ scrambleId: s.id, bot: 'a', verdict: 'solved', moveCount: boards[i].solution.length, moves: boards[i].solution, wallMs: 1 });
    // The solution's first move, undone, then the solution: two moves longer, every move legal.
    const first = boards[i].solution[0];
    const longer = `${first}${INVERSE[first]}${boards[i].solution}`;
    await store.recordResult({ scrambleId: s.id, bot: 'b', verdict: 'solved', moveCount: longer.length, moves: longer, wallMs: 1 });
  }
  await store.setMatchStatus(m.id, 'finished');
  return { m, stored };
}

describe('audit service', () => {
  it('audit service - a sealed, untouched match holds; a purge is told apart from a deletion', async () => {
    const { ctx, store, keyFile } = await sealedContext();
    await playMatch(store, 3);
    const clean = await auditDatabase(ctx, { keyFile });
    expect(clean).toMatchObject({ ok: true, value: { ok: true, integrity: { checked: true }, problems: [] } });
    await store.removeResults('b');
    const purged = await auditDatabase(ctx, { keyFile });
    if (!purged.ok) throw new Error(purged.reason);
    // The pairs are gone from a finished match (that is what a purge does), but no sealed row vanished unaccounted.
    expect(purged.value.problems.map((p) => p.what)).toEqual(Array(3).fill('no result, though the match is finished: a row was deleted'));
    expect(purged.value.matches[0].notes).toContain('3 sealed result(s) were removed with arena bot remove --purge');
  });

  it('audit service - an SPRT that decided may leave pairs unplayed; one that did not may not', async () => {
    const { ctx, store, keyFile } = await sealedContext();
    const sprt = parseSprt('elo0=0,elo1=400,alpha=0.3,beta=0.3');
    if (!sprt.ok) throw new Error(sprt.reason);
    await playMatch(store, 8, { sprt: sprt.value }, 6);
    const decided = await auditDatabase(ctx, { keyFile });
    if (!decided.ok) throw new Error(decided.reason);
    expect(decided.value.problems).toEqual([]);
    expect(decided.value.matches[0].notes.join('\n')).toMatch(/its SPRT decided \(H1\)/);

    const strict = parseSprt('elo0=0,elo1=5');
    if (!strict.ok) throw new Error(strict.reason);
    await playMatch(store, 8, { sprt: strict.value }, 6);
    const undecided = await auditDatabase(ctx, { match: 2, keyFile });
    expect(undecided.ok && undecided.value.problems.filter((p) => /no result, though the match is finished/.test(p.what))).toHaveLength(4);
  });

  it('audit service - an answer shorter than the recorded optimum proves the bound wrong', async () => {
    const { ctx, store, keyFile } = await sealedContext();
    const { stored } = await playMatch(store, 2);
    await store.setScrambleBound(stored[1].id, { optimal: 9, lowerBound: 9 });
    const r = await auditDatabase(ctx, { keyFile });
    // (A 3x3 board's optimum is the puzzle's own bound, so that differs too; a 4x4 oracle's would not.)
    expect(r.ok && r.value.problems).toEqual([
      { match: 1, scramble: 2, what: 'recorded optimum 9, but the puzzle computes 4' },
      { match: 1, scramble: 2, bot: 'a', what: 'solved in 4 moves, fewer than the recorded optimum 9: the bound or the answer is wrong' },
      { match: 1, scramble: 2, bot: 'b', what: 'solved in 6 moves, fewer than the recorded optimum 9: the bound or the answer is wrong' },
    ]);
    expect(await auditDatabase(ctx, { match: 7 })).toMatchObject({ ok: false, code: 'no-match' });
  });
});
