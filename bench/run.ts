/**
 * `npm run bench [-- --quick] [-- --json] [-- --only name,name]`: runs every suite in bench/*.ts (each
 * exports `bench: BenchSuite`) and prints one table, or JSON with --json. Suites run one after another in
 * this process so their figures do not compete for the two cores. A suite that exports `optIn = true`
 * (minutes long) runs only when --only names it. Every figure carries the 1-minute load average it was
 * measured at (its `load` column): on a shared machine a figure means little without it.
 */
import { readdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow, BenchSuite } from './types.ts';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const json = args.includes('--json');
const quick = args.includes('--quick');
const onlyIdx = args.indexOf('--only');
const only = onlyIdx >= 0 ? new Set((args[onlyIdx + 1] ?? '').split(',').filter(Boolean)) : undefined;

const known = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && f !== 'types.ts' && !f.startsWith('_'))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
// A misspelt suite would otherwise run nothing and print an empty table.
const unknown = only ? [...only].filter((name) => !known.includes(name)) : [];
if (only && (only.size === 0 || unknown.length > 0)) {
  process.stderr.write(`--only takes suite names separated by commas${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''} (suites: ${known.join(', ')})\n`);
  process.exit(2);
}
const suites = known.filter((name) => !only || only.has(name));

const all: { suite: string; rows: BenchRow[]; error?: string }[] = [];
for (const suite of suites) {
  try {
    const mod = (await import(pathToFileURL(join(here, `${suite}.ts`)).href)) as { bench?: BenchSuite; optIn?: boolean };
    if (typeof mod.bench !== 'function') continue;
    if (mod.optIn && !only) continue;
    if (!json) process.stderr.write(`running ${suite}${quick ? ' (quick)' : ''}...\n`);
    const rows = await mod.bench({ quick });
    // The load at the end of the suite for figures that did not sample their own.
    const load = loadavg()[0];
    all.push({ suite, rows: rows.map((r) => ({ ...r, load: r.load ?? load })) });
  } catch (e) {
    all.push({ suite, rows: [], error: (e as Error).message });
  }
}

if (json) {
  process.stdout.write(JSON.stringify({ quick, node: process.version, cores: availableParallelism(), suites: all }, null, 2) + '\n');
} else {
  const lines: string[][] = [['suite', 'measure', 'value', 'unit', 'target', 'load', 'note']];
  for (const s of all) {
    if (s.error) lines.push([s.suite, 'FAILED', '', '', '', '', s.error]);
    for (const r of s.rows) lines.push([s.suite, r.name, fmt(r.value), r.unit, r.target ?? '', r.load === undefined ? '' : r.load.toFixed(2), r.note ?? '']);
  }
  const widths = lines[0].map((_, c) => Math.max(...lines.map((l) => l[c].length)));
  for (const [i, l] of lines.entries()) {
    process.stdout.write(l.map((cell, c) => (c === 2 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd() + '\n');
    if (i === 0) process.stdout.write(widths.map((w) => '-'.repeat(w)).join('  ') + '\n');
  }
}
if (all.some((s) => s.error)) process.exitCode = 1;

function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3);
}
