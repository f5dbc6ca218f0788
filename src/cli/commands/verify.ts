import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { verifySolution } from '../../app/audit/verify.ts';
import { must } from '../errors.ts';

/** Registers `arena verify`: exit 0 when solved, 1 otherwise. */
export function registerVerify(program: Command, print: (text: string) => void, setExit: (code: number) => void): void {
  program
    .command('verify')
    .description(summaryOf('verify'))
    .requiredOption('--scramble <file|json>', 'a canonical JSON state, inline or in a file')
    .requiredOption('--moves <file|string>', 'the moves, inline or in a file, in the kind\'s notation')
    .option('--json', 'print {"verdict","moves","index"?,"reason"?,"optimal"?,"lowerBound"?}')
    .action((f: { scramble: string; moves: string; json?: boolean }) => {
      const r = must(verifySolution(f.scramble, f.moves));
      const best = r.optimal !== undefined ? `optimal ${r.optimal}` : `lower bound ${r.lowerBound}`;
      print(
        f.json
          ? JSON.stringify(r) + '\n'
          : r.verdict === 'solved'
            ? `solved in ${r.moves} moves (${best})\n`
            : `invalid: ${r.reason}${r.index !== undefined ? ` (move index ${r.index})` : ''}; ${r.moves} legal moves applied (${best})\n`,
      );
      setExit(r.verdict === 'solved' ? 0 : 1);
    });
}
