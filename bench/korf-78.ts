/**
 * Korf's 100 through the arena with ida-star on the 7-8 pattern databases (arena prepare ida-star builds
 * them into the cache; without them the suite says so and measures nothing): `arena match ida-star
 * --scrambles korf.jsonl --db <fresh> [--affinity]` as a whole child process, paired with the C++ solver
 * (github.com/MichaelKim/15puzzle, 6-6-3, -O3; ARENA_BENCH_15PUZZLE as for bench/korf.ts) run just before it
 * on the same instances, three pairs (one with --quick), the median ratio reported. Every answer must have
 * the published optimal length, the referee's oracle must have proved every optimum, and every answer's note
 * must name the 7-8 heuristic (a silent fall-back to 6-6-3 would make the figure a lie).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultCacheDir, pdbFileName } from '../src/solvers/sliding/pdb-cache.ts';
import { PARTITION_4X4_78 } from '../src/solvers/sliding/pdb-set.ts';
import { run, writeKorfInputs } from './korf.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const ROOT = resolve(import.meta.dirname, '..');

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export const bench: BenchSuite = async ({ quick }) => {
  const cpp = process.env.ARENA_BENCH_15PUZZLE;
  if (!cpp || !existsSync(join(cpp, 'bin/puzzle'))) {
    return [{ name: "Korf's 100 with 7-8 tables vs a C++ solver", value: NaN, unit: '', note: 'skipped: set ARENA_BENCH_15PUZZLE (see bench/korf.ts)' }];
  }
  const cache = defaultCacheDir();
  if (!PARTITION_4X4_78.every((t) => existsSync(join(cache, pdbFileName(4, 4, t))))) {
    return [{ name: "Korf's 100 with 7-8 tables vs a C++ solver", value: NaN, unit: '', note: `skipped: no 7-8 tables in ${cache} (arena prepare ida-star)` }];
  }
  const dir = mkdtempSync(join(tmpdir(), 'arena-korf78-'));
  try {
    const { instances, boards, one, scrambles } = writeKorfInputs(dir);
    const optimal = instances.map((i) => i.optimal).join();
    await run(join(cpp, 'bin/puzzle'), ['-d', 'databases/663-reg', '-b', one], cpp);
    await run(process.execPath, [join(ROOT, 'scripts/build.js'), '--quiet'], ROOT);
    let db = 0;
    const arena = async (...flags: string[]) => {
      const r = await run(process.execPath, [join(ROOT, 'bin/arena.js'), 'match', 'ida-star', '--scrambles', scrambles, '--db', join(dir, `fresh-${db++}.db`), ...flags, '--json', '--quiet'], ROOT);
      const report = JSON.parse(r.stdout) as {
        results: Array<{ moves: number; verdict: string; nodes?: number; note?: string }>;
        scrambles: Array<{ optimal?: number }>;
      };
      if (report.results.map((x) => (x.verdict === 'solved' ? x.moves : -1)).join() !== optimal) throw new Error('korf-78 bench: ida-star disagrees with the published lengths');
      if (report.scrambles.map((s) => s.optimal ?? -1).join() !== optimal) throw new Error('korf-78 bench: the oracle did not prove every optimum');
      if (!report.results.every((x) => x.note?.includes('pdb 8-7'))) throw new Error(`korf-78 bench: ida-star did not use the 7-8 tables (${report.results[0]?.note})`);
      return { wallS: r.wallS, nodes: report.results.map((x) => x.nodes ?? NaN) };
    };
    const cppRun = async () => {
      const c = await run(join(cpp, 'bin/puzzle'), ['-d', 'databases/663-reg', '-b', boards], cpp);
      const lengths = [...c.stdout.matchAll(/^Solution: (\d+) moves$/gm)].map((m) => Number(m[1]));
      if (lengths.join() !== optimal) throw new Error('korf-78 bench: the C++ solver disagrees with the published lengths');
      return c.wallS;
    };
    const pairs: { cpp: number; pinned: number; plain: number }[] = [];
    let nodes: number[] = [];
    for (let i = 0; i < (quick ? 1 : 3); i++) {
      const c = await cppRun();
      const pinned = await arena('--affinity');
      const plain = await arena();
      nodes = pinned.nodes;
      pairs.push({ cpp: c, pinned: pinned.wallS, plain: plain.wallS });
    }
    const load = `load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`;
    const ratios = (k: 'pinned' | 'plain') => pairs.map((p) => p[k] / p.cpp);
    const range = (xs: number[]) => `${pairs.length} pairs, ${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)}`;
    const total = nodes.reduce((a, b) => a + b, 0);
    const rows: BenchRow[] = [
      { name: "Korf's 100, C++ 15puzzle (663 PDB, -O3), median of the pairs", value: median(pairs.map((p) => p.cpp)), unit: 's', note: load },
      { name: "Korf's 100, arena match ida-star, 7-8 tables, fresh database, --affinity", value: median(pairs.map((p) => p.pinned)), unit: 's', note: 'all 100 optimal, proven by the oracle' },
      { name: "Korf's 100, arena / C++ wall time, 7-8 tables, fresh database, --affinity", value: median(ratios('pinned')), unit: 'ratio', target: '≤ 0.05', note: range(ratios('pinned')) },
      { name: "Korf's 100, arena / C++ wall time, 7-8 tables, fresh database, no flag", value: median(ratios('plain')), unit: 'ratio', target: '≤ 0.05', note: range(ratios('plain')) },
      { name: "Korf's 100, ida-star nodes per instance, 7-8 + reflection", value: Math.round(total / nodes.length), unit: 'nodes', note: `median ${Math.round(median(nodes))}, max ${Math.max(...nodes)}; Korf & Felner report about 37 thousand` },
    ];
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
