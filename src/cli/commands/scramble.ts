import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { MATCH_LIMITS } from '../../app/matches.ts';
import { describeScrambles } from '../../app/scrambles.ts';
import { must } from '../errors.ts';
import { puzzleKinds } from '../../puzzles/index.ts';
import { intFlag, seedFlag, sizeFlagHelp, specFromFlags, type SizeFlags } from '../parse-flags.ts';

/** Registers `arena scramble`. */
export function registerScramble(program: Command, print: (text: string) => void): void {
  program
    .command('scramble')
    .description(summaryOf('scramble'))
    .argument('<kind>', puzzleKinds().join(' | '))
    .option('--size <n>', sizeFlagHelp('size'))
    .option('--rows <R>', sizeFlagHelp('rows'))
    .option('--cols <C>', sizeFlagHelp('cols'))
    .option('--discs <N>', sizeFlagHelp('discs'))
    .option('--count <K>', 'how many scrambles', '1')
    .option('--seed <S>', 'seed (number or text); same seed, same scrambles on every machine', '1')
    .option('--walk <k>', 'random walk of k moves from the goal instead of a uniform state')
    .option('--random-goal', sizeFlagHelp('randomGoal'))
    .option('--json', 'one canonical JSON state per line')
    .action((kind: string, f: SizeFlags & { count: string; seed: string; walk?: string; json?: boolean }) => {
      const spec = specFromFlags(kind, f);
      const count = intFlag('count', f.count, MATCH_LIMITS.count)!;
      const seed = seedFlag(f.seed)!;
      const walk = intFlag('walk', f.walk, MATCH_LIMITS.walk);
      const scrambles = must(describeScrambles(spec, count, seed, walk));
      if (f.json) return print(scrambles.map((s) => JSON.stringify(s.state)).join('\n') + '\n');
      print(
        scrambles
          .map((s, i) => {
            const dist = s.bound.optimal !== undefined ? `optimal ${s.bound.optimal}` : `lower bound ${s.bound.lowerBound}`;
            return `# ${s.puzzleClass} — scramble ${i + 1}/${count}, seed ${seed}, ${dist}\n${s.picture}\n`;
          })
          .join('\n'),
      );
    });
}
