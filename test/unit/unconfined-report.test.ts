import { describe, expect, it } from 'vitest';
import { reportOf } from '../../src/app/records/records.ts';
import type { AppContext } from '../../src/app/context.ts';
import { formatMatchReport, UNCONFINED_LINE } from '../../src/cli/format-report.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { matchPage } from '../../src/web/pages/match.ts';

/** A stored match with this config, and its report as every reader gets it. */
async function reportWith(config: Record<string, unknown>) {
  const store = createMemoryStore();
  const match = await store.createMatch({ config: { bots: ['a'], count: 1, seed: 's', timeLimitMs: 1000, maxMoves: 10, concurrency: 1, ...config }, seed: 's', generatorVersion: 'v', bots: ['a'], scrambles: [{ index: 0, state: { kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 3, 0] }, puzzleClass: 'sliding 2x2', bound: { lowerBound: 0, optimal: 0 } }] });
  const ctx = { store, dbLocation: ':memory:', projectRoot: '/p', clock: { now: () => 0 } } as unknown as AppContext;
  return { report: await reportOf(ctx, match), config: match.config };
}

describe('unconfined matches in reports', () => {
  it('unconfined report - a match stored unconfined says so in the report, the text, and the web page', async () => {
    const { report, config } = await reportWith({ unconfined: true });
    expect(report.match.unconfined).toBe(true);
    expect(formatMatchReport(report).split('\n')[1]).toBe(UNCONFINED_LINE);
    expect(matchPage(report, config)).toMatch(/<p class="warning" id="unconfined"><b>Unconfined:<\/b> the bots the arena started ran outside the sandbox/);
  });

  it('unconfined report - a confined match says nothing of it', async () => {
    const { report, config } = await reportWith({});
    expect('unconfined' in report.match).toBe(false);
    expect(formatMatchReport(report)).not.toContain('UNCONFINED');
    expect(matchPage(report, config)).not.toContain('id="unconfined"');
  });
});
