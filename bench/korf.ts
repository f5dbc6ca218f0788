/**
 * Korf's 100 15-puzzles (test/fixtures/sliding/korf-100-15-puzzle.json) through the arena the way a user
 * runs them after `npm install` (the compiled build, refreshed first), `arena match ida-star --scrambles
 * korf.jsonl --affinity --db …` as a child process: on a fresh database (the exact oracle proves each
 * optimum on the core --affinity keeps back, while the bot solves on its own), then again on the same
 * database (every optimum now cached), and on a fresh database without --affinity (the oracle then waits
 * for the bot's solves, so its proofs come after the last one), beside a C++ IDA* + pattern-database solver
 * on the same instances in the same run. The C++ solver is
 * github.com/MichaelKim/15puzzle, built outside this repository (`g++ -std=c++17 -O3 src/*.cpp -o
 * bin/puzzle`); point ARENA_BENCH_15PUZZLE at its folder. Without it the suite measures nothing and says so.
 *
 * CPU figures are the children's user + system time as the kernel accounts it to this process when it reaps
 * them (cutime + cstime of /proc/self/stat): the arena's with its oracle thread, or the C++ solver's. A bot
 * in its sandbox is not reaped through the arena, so its CPU time is the referee's meter (the report's
 * cpuMs). Every answer is checked against the published optimal lengths.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchRow, BenchSuite } from './types.ts';

const ROOT = resolve(import.meta.dirname, '..');
const FIXTURE = join(ROOT, 'test/fixtures/sliding/korf-100-15-puzzle.json');

/** One of Korf's 100 with its published optimal length. */
export interface Instance {
  readonly id: number;
  readonly optimal: number;
  readonly tiles: number[];
}

/** CPU seconds of this process's reaped children so far. */
function childCpuS(): number {
  const f = readFileSync('/proc/self/stat', 'latin1');
  const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Runs a command to its end; its wall time, its CPU time (reaped) and its stdout. Throws on a non-zero exit. */
export async function run(command: string, args: string[], cwd: string): Promise<{ wallS: number; cpuS: number; stdout: string }> {
  const c0 = childCpuS();
  const t0 = performance.now();
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  if (code !== 0) throw new Error(`${command} ${args.slice(0, 3).join(' ')} exited ${code}: ${stderr.split('\n').slice(-3).join(' ')}`);
  return { wallS: (performance.now() - t0) / 1000, cpuS: childCpuS() - c0, stdout };
}

/**
 * Writes Korf's 100 into `dir` as the C++ solver's board file (`boards`), a one-move warm-up board (`one`)
 * and the arena's scrambles (`scrambles`, JSON lines).
 */
export function writeKorfInputs(dir: string): { instances: Instance[]; boards: string; one: string; scrambles: string } {
  const instances = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { instances: Instance[] }).instances;
  const boards = join(dir, 'korf100-reg');
  const one = join(dir, 'one-reg');
  const grid = (t: readonly number[]) => [0, 1, 2, 3].map((r) => t.slice(4 * r, 4 * r + 4).join(' ')).join('\n');
  writeFileSync(boards, `4 4 ${instances.length}\n\n${instances.map((i) => grid(i.tiles)).join('\n\n')}\n`);
  writeFileSync(one, `4 4 1\n\n${grid([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15])}\n`);
  const scrambles = join(dir, 'korf100.jsonl');
  writeFileSync(scrambles, instances.map((i) => JSON.stringify({ kind: 'sliding', rows: 4, cols: 4, tiles: i.tiles })).join('\n') + '\n');
  return { instances, boards, one, scrambles };
}

export const bench: BenchSuite = async () => {
  const cpp = process.env.ARENA_BENCH_15PUZZLE;
  if (!cpp || !existsSync(join(cpp, 'bin/puzzle'))) {
    return [{ name: "Korf's 100 vs a C++ solver", value: NaN, unit: '', note: 'skipped: set ARENA_BENCH_15PUZZLE to a build of github.com/MichaelKim/15puzzle (bin/puzzle, databases/663-reg)' }];
  }
  const dir = mkdtempSync(join(tmpdir(), 'arena-korf-'));
  try {
    const { instances, boards, one, scrambles } = writeKorfInputs(dir);

    // The C++ solver builds its databases on first use: one trivial board first, so its time is solving only.
    await run(join(cpp, 'bin/puzzle'), ['-d', 'databases/663-reg', '-b', one], cpp);
    const c = await run(join(cpp, 'bin/puzzle'), ['-d', 'databases/663-reg', '-b', boards], cpp);
    const lengths = [...c.stdout.matchAll(/^Solution: (\d+) moves$/gm)].map((m) => Number(m[1]));
    if (lengths.join() !== instances.map((i) => i.optimal).join()) throw new Error('korf bench: the C++ solver disagrees with the published lengths');

    // What `npm install` leaves: the compiled build (bin/arena.js runs the TypeScript source through tsx,
    // about a second slower to start, when the build is older than the source).
    await run(process.execPath, [join(ROOT, 'scripts/build.js'), '--quiet'], ROOT);
    const arena = async (db: string, ...flags: string[]) => {
      const r = await run(process.execPath, [join(ROOT, 'bin/arena.js'), 'match', 'ida-star', '--scrambles', scrambles, '--db', join(dir, db), ...flags, '--json', '--quiet'], ROOT);
      const report = JSON.parse(r.stdout) as { results: Array<{ moves: number; verdict: string; reportedMs?: number; cpuMs?: number }>; scrambles: Array<{ optimal?: number }> };
      const moves = report.results.map((x) => (x.verdict === 'solved' ? x.moves : -1));
      if (moves.join() !== instances.map((i) => i.optimal).join()) throw new Error('korf bench: ida-star through the arena disagrees with the published lengths');
      if (report.scrambles.some((s, i) => s.optimal !== instances[i]!.optimal)) throw new Error('korf bench: the oracle disagrees with the published lengths');
      const searchS = report.results.reduce((a, x) => a + (x.reportedMs ?? 0), 0) / 1000;
      const botCpuS = report.results.reduce((a, x) => a + (x.cpuMs ?? 0), 0) / 1000;
      return { ...r, searchS, botCpuS };
    };
    const first = await arena('arena.db', '--affinity');
    const again = await arena('arena.db', '--affinity');
    const held = await arena('held.db');
    const load = `load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`;
    const of = (a: typeof first) =>
      `arena ${a.cpuS.toFixed(1)} s CPU with its oracle; ida-star's own search ${a.searchS.toFixed(1)} s (its clock), its solves ${a.botCpuS.toFixed(1)} s CPU`;
    const cpu = (a: typeof first) => `CPU ratio ${((a.cpuS + a.botCpuS) / c.cpuS).toFixed(3)} (arena, oracle and bot)`;
    return [
      { name: "Korf's 100, C++ 15puzzle (MichaelKim, 663 PDB, -O3)", value: c.wallS, unit: 's', note: `${c.cpuS.toFixed(1)} s CPU; all 100 at the published length; ${load}` },
      { name: "Korf's 100, arena match ida-star --scrambles --affinity, fresh database", value: first.wallS, unit: 's', note: of(first) },
      { name: "Korf's 100, the same again (optima cached)", value: again.wallS, unit: 's', note: of(again) },
      { name: "Korf's 100, fresh database without --affinity (proofs wait for the solves)", value: held.wallS, unit: 's', note: of(held) },
      { name: "Korf's 100, arena / C++ wall time, fresh database (--affinity)", value: first.wallS / c.wallS, unit: 'ratio', target: '≤ 0.15', note: cpu(first) },
      { name: "Korf's 100, arena / C++ wall time, optima cached", value: again.wallS / c.wallS, unit: 'ratio', target: '≤ 0.15', note: cpu(again) },
      { name: "Korf's 100, arena / C++ wall time, fresh database without --affinity", value: held.wallS / c.wallS, unit: 'ratio', note: cpu(held) },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
