import type { Command } from 'commander';
import type { PuzzleState, ScrambleSpec } from '../../core/types.ts';
import { puzzleKinds, puzzleOf } from '../../puzzles/index.ts';
import { generateScrambles } from '../../referee/scrambles.ts';
import { must } from '../errors.ts';
import { intFlag, sizeFlagHelp, specFromFlags, type SizeFlags } from '../parse-flags.ts';

/** Typed options of `arena scramble`. */
export interface ScrambleOptions {
  readonly spec: ScrambleSpec;
  readonly count: number;
  readonly seed: string;
  readonly walk?: number;
  readonly json: boolean;
}

/** Generates the scrambles and renders them as text lines. */
export function scrambleAction(o: ScrambleOptions): string {
  const states = must(generateScrambles(o.spec, o.count, o.seed, o.walk));
  if (o.json) return states.map((s) => JSON.stringify(s)).join('\n') + '\n';
  return states.map((s, i) => describeOne(s, i, o)).join('\n');
}

function describeOne(s: PuzzleState, i: number, o: ScrambleOptions): string {
  const p = puzzleOf(s);
  const b = p.bound(s);
  const dist = b.optimal !== undefined ? `optimal ${b.optimal}` : `lower bound ${b.lowerBound}`;
  return `# ${p.className(s)} — scramble ${i + 1}/${o.count}, seed ${o.seed}, ${dist}\n${p.describe(s)}\n`;
}

/** Registers `arena scramble`. */
export function registerScramble(program: Command, print: (text: string) => void): void {
  program
    .command('scramble')
    .description('print seeded, uniformly random solvable scrambles (JSON Lines with --json)')
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
      const walk = intFlag('walk', f.walk, 0);
      print(
        scrambleAction({
          spec: specFromFlags(kind, f),
          count: intFlag('count', f.count) ?? 1,
          seed: f.seed,
          ...(walk !== undefined ? { walk } : {}),
          json: Boolean(f.json),
        }),
      );
    });
}
