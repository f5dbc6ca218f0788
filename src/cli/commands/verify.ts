import type { Command } from 'commander';
import { puzzleOf } from '../../puzzles/index.ts';
import { CliError, must } from '../errors.ts';
import { parseScrambles, textOrFile } from '../read-input.ts';

/** Typed options of `arena verify`. */
export interface VerifyOptions {
  /** A file path or inline canonical JSON of one state. */
  readonly scramble: string;
  /** A file path or the inline move text. */
  readonly moves: string;
  readonly json: boolean;
}

/** The printed verdict of `arena verify`. */
export interface VerifyReport {
  readonly verdict: 'solved' | 'invalid';
  readonly moves: number;
  readonly index?: number;
  readonly reason?: string;
  readonly optimal?: number;
  readonly lowerBound?: number;
}

/** Replays the moves on the scramble; exit code 0 when solved, 1 otherwise. */
export function verifyAction(o: VerifyOptions): { report: VerifyReport; text: string; exitCode: number } {
  const states = parseScrambles(textOrFile(o.scramble), 'scramble');
  if (states.length !== 1) throw new CliError(`scramble: expected one state, found ${states.length}`);
  const state = states[0];
  const p = puzzleOf(state);
  const moves = must(p.parseMoves(textOrFile(o.moves)), 'moves');
  const out = p.replay(state, moves);
  const b = p.bound(state);
  const report: VerifyReport = {
    verdict: out.verdict,
    moves: out.moves,
    ...(out.verdict === 'invalid' && out.index !== undefined ? { index: out.index } : {}),
    ...(out.verdict === 'invalid' ? { reason: out.reason } : {}),
    ...(b.optimal !== undefined ? { optimal: b.optimal } : { lowerBound: b.lowerBound }),
  };
  const best = b.optimal !== undefined ? `optimal ${b.optimal}` : `lower bound ${b.lowerBound}`;
  const text = o.json
    ? JSON.stringify(report) + '\n'
    : out.verdict === 'solved'
      ? `solved in ${out.moves} moves (${best})\n`
      : `invalid: ${out.reason}${out.index !== undefined ? ` (move index ${out.index})` : ''}; ${out.moves} legal moves applied (${best})\n`;
  return { report, text, exitCode: out.verdict === 'solved' ? 0 : 1 };
}

/** Registers `arena verify`. */
export function registerVerify(program: Command, print: (text: string) => void, setExit: (code: number) => void): void {
  program
    .command('verify')
    .description('replay a solution on a scramble and print the verdict (exit 0 only when solved)')
    .requiredOption('--scramble <file|json>', 'a canonical JSON state, inline or in a file')
    .requiredOption('--moves <file|string>', 'the moves, inline or in a file, in the kind\'s notation')
    .option('--json', 'print {"verdict","moves","index"?,"reason"?,"optimal"?,"lowerBound"?}')
    .action((f: { scramble: string; moves: string; json?: boolean }) => {
      const r = verifyAction({ scramble: f.scramble, moves: f.moves, json: Boolean(f.json) });
      print(r.text);
      setExit(r.exitCode);
    });
}
