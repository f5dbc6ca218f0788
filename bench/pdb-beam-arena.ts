/**
 * Opt-in (`npm run bench -- --only pdb-beam-arena`, about 9 minutes): Korf & Felner's fifty 24-puzzles
 * played as a user plays them after the Quick start and `arena prepare pdb-beam` — the whole `arena match
 * pdb-beam --scrambles … --time-limit 10s` process, confined, on a fresh database, the bot reading its tables
 * from the asset store — moves ÷ the published optimum. Without the tables the suite says so and measures
 * nothing (a confined pdb-beam would play on Manhattan + linear conflict).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultCacheDir, pdbFileName } from '../src/solvers/sliding/pdb-cache.ts';
import { korfFelner24 } from '../test/helpers/pdb-fixtures.ts';
import { run } from './korf.ts';
import type { BenchRow, BenchSuite } from './types.ts';

export const optIn = true;

const ROOT = resolve(import.meta.dirname, '..');
/** pdb-beam's 5×5 partition (bots/pdb-beam/assets.json): one file is enough to tell whether it was prepared. */
const FIRST_TABLE = pdbFileName(5, 5, [1, 2, 3, 6, 7, 8]);

export const bench: BenchSuite = async ({ quick }) => {
  const cache = defaultCacheDir();
  if (!existsSync(join(cache, FIRST_TABLE))) {
    return [{ name: 'Korf-Felner fifty through the arena', value: NaN, unit: '', note: `skipped: no 5x5 tables in ${cache} (arena prepare pdb-beam)` }];
  }
  const set = korfFelner24().slice(0, quick ? 5 : 50);
  const dir = mkdtempSync(join(tmpdir(), 'arena-kf50-'));
  try {
    const scrambles = join(dir, 'korf-felner.jsonl');
    writeFileSync(scrambles, set.map((x) => JSON.stringify({ kind: 'sliding', rows: 5, cols: 5, tiles: x.tiles })).join('\n') + '\n');
    const r = await run(process.execPath, [join(ROOT, 'bin/arena.js'), 'match', 'pdb-beam', '--scrambles', scrambles, '--time-limit', '10s', '--db', join(dir, 'fresh.db'), '--json', '--quiet'], ROOT);
    const load = loadavg()[0]!;
    const report = JSON.parse(r.stdout) as { results: Array<{ moves: number; verdict: string }> };
    const solved = report.results.filter((x) => x.verdict === 'solved');
    const ratios = report.results.map((x, i) => (x.verdict === 'solved' ? x.moves / set[i]!.optimal : NaN)).filter(Number.isFinite);
    const mean = ratios.reduce((s, x) => s + x, 0) / Math.max(1, ratios.length);
    return [
      { name: `Korf-Felner ${set.length} through arena match pdb-beam, 10 s each, confined, prepared tables`, value: mean, unit: '× optimum', target: '≤ 1.03', note: `mean ${mean.toFixed(4)}×, ${solved.length}/${set.length} solved, worst ${Math.max(...ratios).toFixed(3)}×, ${r.wallS.toFixed(0)} s wall`, load },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
