/**
 * How long a command takes to start and finish: `arena --help` and `arena matches` on an empty database
 * (the target: ≤ 0.3 s each), from the bundle built at install and from the TypeScript source
 * through tsx (what every command cost before the bundle); and `arena match --help` from the one-file
 * bundle with its code cache (scripts/cli-bundle.js) against the ES modules of dist/src. The median of several runs, each a fresh process.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildIsFresh } from '../src/runtime/source-tree.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const ROOT = resolve(import.meta.dirname, '..');

function medianSeconds(args: string[], runs: number, env: Record<string, string>): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    times.push((performance.now() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export const bench: BenchSuite = async ({ quick }) => {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-cli-'));
  const env = { ARENA_DB: join(dir, 'empty.db') };
  const runs = quick ? 3 : 9;
  const bin = join(ROOT, 'bin', 'arena.js');
  // The source through tsx, as bin/arena.js runs it when the bundle is missing or older than the source.
  const fromSource = ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts')];
  const note = buildIsFresh(ROOT) ? `median of ${runs}` : `median of ${runs}; NO FRESH BUNDLE (npm run build): this is the source path`;
  try {
    const rows: BenchRow[] = [];
    for (const [label, cmd] of [['arena --help', ['--help']], ['arena matches (empty database)', ['matches']]] as const) {
      rows.push({ name: `CLI start-up, ${label}`, value: medianSeconds([bin, ...cmd], runs, env), unit: 's', target: '≤ 0.3', note });
      rows.push({ name: `CLI start-up, ${label}, from source (tsx)`, value: medianSeconds([...fromSource, ...cmd], runs, env), unit: 's', note: 'before the bundle' });
    }
    // The one-file bundle from its code cache (what bin/arena.js starts) against the ES modules it replaced.
    const esModules = join(ROOT, 'dist', 'src', 'cli', 'main.js');
    rows.push({ name: 'CLI start-up, arena match --help (loads every module a match does)', value: medianSeconds([bin, 'match', '--help'], runs, env), unit: 's', note });
    rows.push({ name: 'CLI start-up, arena match --help, from the ES modules of dist/src', value: medianSeconds([esModules, 'match', '--help'], runs, env), unit: 's', note: 'before the one-file bundle and its code cache' });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
