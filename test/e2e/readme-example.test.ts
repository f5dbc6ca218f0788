import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, spawnArena } from './helpers.ts';

// The README's "After the match" example (seed 7) is a real run: its numbers must be what the run gives.

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'arena-readme-'));

describe('README - the seed-7 example', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('README - the seed-7 match gives the solved counts, mean gaps, optima and first optimum the README prints', async () => {
    const command = /^npx arena (match ida-star constructive --puzzle sliding --size 4 --count 20 --seed 7)$/m.exec(readme);
    expect(command, 'the example command').not.toBeNull();
    const summary = /^#\s+\.\.\.\s+ida-star (\d+)\/20 solved, mean gap ([\d.]+), optimal (\d+) · constructive (\d+)\/20, mean gap ([\d.]+), optimal (\d+)$/m.exec(readme);
    expect(summary, 'the summary line under it').not.toBeNull();
    const firstOptimum = /# the report again: per scramble \(=(\d+): exact optimum\)/.exec(readme);
    const r = await spawnArena([...command![1].split(' '), '--json', '--db', join(dir, 'readme.db')], {}).done;
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      scrambles: Array<{ scramble: number; optimal?: number }>;
      summary: { bots: Record<string, { solved: number; meanGap: number; optimalSolves: number }> };
    };
    const [, idaSolved, idaGap, idaOptimal, conSolved, conGap, conOptimal] = summary!;
    const { 'ida-star': ida, constructive } = report.summary.bots;
    expect([ida.solved, ida.meanGap.toFixed(1), ida.optimalSolves]).toEqual([Number(idaSolved), idaGap, Number(idaOptimal)]);
    expect([constructive.solved, constructive.meanGap.toFixed(1), constructive.optimalSolves]).toEqual([Number(conSolved), conGap, Number(conOptimal)]);
    expect(report.scrambles.find((s) => s.scramble === 1)?.optimal).toBe(Number(firstOptimum![1]));
  }, 300_000);
});
