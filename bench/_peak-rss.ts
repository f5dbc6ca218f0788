/**
 * The referee's peak resident memory while it validates and records a 50,000,000-move answer of each
 * kind (issue 8: a 60 M-pair swaps answer drove it to 4.8–6 GB). Each kind runs in a referee process of its
 * own (bench/_peak-rss-child.ts), so one kind's garbage cannot hide in another's figure; the answer comes
 * over a real WebSocket from a spawned bot in the chunk sizes PROTOCOL.md recommends, and the result is
 * stored in a SQLite file with its moves.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { PuzzleState, WireMoves } from '../src/core/types.ts';
import { puzzles } from '../src/puzzles/index.ts';
import type { BenchRow } from './types.ts';

const ROOT = resolve(import.meta.dirname, '..');
const MiB = 1024 * 1024;

interface RssCase {
  readonly what: string;
  readonly state: PuzzleState;
  /** Two moves that undo each other, legal at the scramble. */
  readonly pad: WireMoves;
  /** The moves that solve the scramble. */
  readonly tail: WireMoves;
}

/** A state `moves` away from the goal of `goal`, by replaying them. */
function after(goal: PuzzleState, moves: WireMoves): PuzzleState {
  const r = puzzles[goal.kind].replayer(goal as never);
  if (r.push(moves)) throw new Error(`bench case: ${JSON.stringify(moves)} is not legal from the goal`);
  return r.state() as PuzzleState;
}

/**
 * Large boards with the widest move notation each kind allows at that size (4-digit warehouse tiles,
 * 5-digit swap pieces), so the answer is as many bytes on the wire as a real one.
 */
function cases(): RssCase[] {
  const sliding = puzzles.sliding.goal({ kind: 'sliding', rows: 100, cols: 100 });
  const warehouse = puzzles.warehouse.goal({ kind: 'warehouse', size: 100 });
  const swapped = Array.from({ length: 10_000 }, (_, i) => i + 1);
  [swapped[9996], swapped[9997], swapped[9998], swapped[9999]] = [9998, 9997, 10000, 9999];
  return [
    { what: 'sliding 100x100', state: after(sliding, 'UL'), pad: 'UD', tail: 'RD' },
    { what: 'hanoi 24 discs', state: { kind: 'hanoi', pegs: 3, start: 'BA' + 'C'.repeat(22), goal: 'C'.repeat(24) }, pad: 'BAAB', tail: 'ACBC' },
    { what: 'swaps 100x100', state: { kind: 'swaps', rows: 100, cols: 100, tiles: swapped }, pad: [[9999, 10000], [9999, 10000]], tail: [[9997, 9998], [9999, 10000]] },
    { what: 'warehouse n=100', state: after(warehouse, '1U2U'), pad: '8100D8100U', tail: '1D2D' },
  ];
}

function runChild(arg: string): Promise<{ verdict: string; error?: string; moves: number; wallMs: number; baselineBytes: number; peakBytes: number }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'bench/_peak-rss-child.ts'), arg], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return fail(new Error(`peak-RSS referee exited ${signal ?? code}: ${out.slice(-300)}`));
      done(JSON.parse(line));
    });
  });
}

/** One row per kind: the referee's peak RSS for an answer of `total` moves (default 50,000,000). */
export async function peakRssRows(total: number, kinds?: readonly string[]): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const c of cases().filter((k) => !kinds || kinds.includes(k.state.kind))) {
    const tailMoves = puzzles[c.state.kind].replay(c.state as never, c.tail).moves;
    const padMoves = puzzles[c.state.kind].replay(c.state as never, c.pad).moves;
    const repeat = Math.floor((total - tailMoves) / padMoves);
    const moves = repeat * padMoves + tailMoves;
    const r = await runChild(JSON.stringify({ state: c.state, pad: c.pad, repeat, tail: c.tail, maxMoves: moves }));
    if (r.verdict !== 'solved' || r.moves !== moves) throw new Error(`peak RSS ${c.what}: expected ${moves} moves solved, got ${r.verdict} ${r.moves} ${r.error ?? ''}`);
    rows.push({
      name: `referee peak RSS, ${moves.toLocaleString('en-US')}-move ${c.state.kind} answer validated + recorded (${c.what})`,
      value: r.peakBytes / MiB,
      unit: 'MiB',
      target: '≤ 600',
      note: `${(r.baselineBytes / MiB).toFixed(0)} MiB before the match; ${(r.wallMs / 1000).toFixed(1)} s end to end`,
    });
  }
  return rows;
}
