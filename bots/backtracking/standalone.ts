/**
 * Seed 003's standalone mode: read the board file, write the answer file. Returns the process exit code
 * (0 solved, 1 bad usage or malformed file, 2 unsolvable or no solution found); errors are one line each.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { formatSolutionFile, parseBoardFile } from './board-file.ts';
import { MAX_CELLS, solveBacktracking } from './solve.ts';
import type { BacktrackingOptions } from './solve.ts';

/** Runs one file → file solve; `err` receives error lines, `out` the answer when no output path is given. */
export function runStandalone(
  inPath: string,
  outPath: string | undefined,
  opts: BacktrackingOptions,
  err: (line: string) => void,
  out: (text: string) => void,
): number {
  let text: string;
  try {
    text = readFileSync(inPath, 'utf8');
  } catch (e) {
    err(`backtracking: cannot read ${inPath}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    return 1;
  }
  const parsed = parseBoardFile(text, MAX_CELLS);
  if (!parsed.ok) {
    err(`backtracking: ${inPath}: ${parsed.reason}`);
    return 1;
  }
  const { rows, cols, tiles } = parsed.value;
  const answer = solveBacktracking({ kind: 'sliding', rows, cols, tiles }, {}, opts);
  if (!('moves' in answer)) {
    err(`backtracking: ${inPath}: ${'giveUp' in answer ? answer.giveUp : answer.unsupported}`);
    return 2;
  }
  // The file format has no room for it, so say on stderr when the count may not be the minimum.
  if (answer.optimal === false) err(`backtracking: warning: ${answer.note ?? 'answer may not be optimal'}`);
  const body = formatSolutionFile(answer.moves as string);
  if (outPath === undefined) {
    out(body);
    return 0;
  }
  try {
    writeFileSync(outPath, body);
  } catch (e) {
    err(`backtracking: cannot write ${outPath}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    return 1;
  }
  return 0;
}
