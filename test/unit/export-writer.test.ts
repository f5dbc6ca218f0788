import { describe, expect, it } from 'vitest';
import { solutionText, type ExportItem, type ExportRow } from '../../src/app/records/export.ts';
import type { WireMoves } from '../../src/core/types.ts';
import { writeExportItem } from '../../src/cli/export-writer.ts';

const row: ExportRow = {
  match: 1, scramble: 2, puzzle_class: 'hanoi 3', bot: 'a', verdict: 'solved', moves: 7, optimal: 7, lower_bound: 7, gap: 0,
  wall_ms: 1.5, cpu_ms: null, reported_ms: null, claimed_optimal: true, claim_refuted: false, nodes: null, error_index: null,
  error: 'say "hi", then', note: null,
};
const COLUMNS = [...(Object.keys(row) as (keyof ExportRow)[]), 'solution' as const];

async function* from(pieces: WireMoves[]): AsyncGenerator<WireMoves> {
  yield* pieces;
}

/** What writing `pieces` as one answer gives, and what writing their joined text as one piece gives. */
async function both(pieces: WireMoves[], format: 'csv' | 'jsonl'): Promise<[string, string]> {
  let whole = '';
  for await (const t of solutionText(from(pieces))) whole += t;
  const write = async (item: ExportItem) => {
    let out = '';
    await writeExportItem({ write: (t) => void (out += t) }, item, format, COLUMNS, true);
    return out;
  };
  return [await write({ row, solution: () => solutionText(from(pieces)) }), await write({ row, solution: async function* () { yield whole; } })];
}

describe('export writer', () => {
  it('export writer - a long answer streamed piece by piece is the same CSV and JSONL bytes as written whole', async () => {
    const answers: WireMoves[][] = [
      ['', 'ACAB', 'CBAC', 'BA'],
      ['', '=ACAB', 'C'],
      ['', 'A,C', 'A"B'],
      ['', 'U\nD', 'LR'],
      [[], [[1, 2], [3, 4]], [[5, 6]], []],
      [[], []],
      ['', 'é\u2028\u0000', 'x'],
    ];
    for (const pieces of answers) {
      for (const format of ['csv', 'jsonl'] as const) {
        const [streamed, whole] = await both(pieces, format);
        expect(streamed, `${format} ${JSON.stringify(pieces)}`).toBe(whole);
      }
    }
  });

  it('solutionText - the stored text of an answer: notation joined, pairs as one JSON array, nothing as empty text', async () => {
    const text = async (pieces: WireMoves[]) => {
      let s = '';
      for await (const t of solutionText(from(pieces))) s += t;
      return s;
    };
    expect(await text(['', 'AC', 'AB'])).toBe('ACAB');
    expect(await text([[], [[1, 2]], [], [[3, 4], [5, 6]]])).toBe(JSON.stringify([[1, 2], [3, 4], [5, 6]]));
    expect(await text([[]])).toBe('[]');
    expect(await text([])).toBe('');
  });
});
