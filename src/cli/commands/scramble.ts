import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { describeScrambles } from '../../app/matches/scrambles.ts';
import { must } from '../errors.ts';
import { puzzleKinds } from '../../puzzles/index.ts';
import { intFlag, seedFlag } from '../parse-flags.ts';
import { specOf } from '../../app/matches/match-options.ts';
import { flagSpelling, helpOf, MATCH_LIMITS, readSettings, SETTING_LIST } from '../../app/matches/settings.ts';
import type { PuzzleKind } from '../../core/puzzle-kinds.ts';

/** Registers `arena scramble`. */
export function registerScramble(program: Command, print: (text: string) => void): void {
  const cmd = program
    .command('scramble')
    .description(summaryOf('scramble'))
    .argument('<kind>', puzzleKinds().join(' | '));
  // The size flags are the match settings' own, so both commands read a board the same way.
  for (const s of SETTING_LIST) if (s.part === 'spec' && s.key !== 'kind') cmd.option(flagSpelling(s), helpOf(s));
  cmd
    .option('--count <K>', 'how many scrambles', '1')
    .option('--seed <S>', 'seed (number or text); same seed, same scrambles on every machine', '1')
    .option('--walk <k>', 'random walk of k moves from the goal instead of a uniform state')
    .option('--json', 'one canonical JSON state per line')
    .action((kind: string, f: { count: string; seed: string; walk?: string; json?: boolean }) => {
      const size = must(readSettings({ ...f, count: undefined, seed: undefined, walk: undefined }, 'flags'));
      const spec = must(specOf({ ...size, kind: kind as PuzzleKind }));
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
