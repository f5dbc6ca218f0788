import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { checkReplay, replayMatch, type Replay, type ReplayFrame, type ReplayTrack } from '../../app/records/replay.ts';
import type { ReplayOutcome } from '../../core/types.ts';
import { withApp } from '../context.ts';
import { CliError, must } from '../errors.ts';
import { intFlag } from '../parse-flags.ts';
import { drawScreen, frameJson, type Side } from '../replay-view.ts';
import { matchIdArg } from './matches.ts';
import { terminalText } from '../terminal-text.ts';

/** Answers longer than this are shown every k-th move unless --every says otherwise (about 1000 frames). */
const AUTO_EVERY_ABOVE = 10_000;

interface ReplayFlags {
  bot2?: string;
  step?: boolean;
  fps?: string;
  frames?: boolean;
  every?: string;
  json?: boolean;
  db?: string;
}

/** One bot's replay in progress. */
interface Lane {
  readonly track: ReplayTrack;
  readonly frames: AsyncGenerator<ReplayFrame, ReplayOutcome>;
  side: Side;
  outcome?: ReplayOutcome;
}

/** Advances every unfinished lane by one frame; true when some lane got a new frame. */
async function advance(lanes: Lane[]): Promise<boolean> {
  let moved = false;
  for (const lane of lanes) {
    if (lane.side.done) continue;
    const r = await lane.frames.next();
    if (r.done) {
      lane.outcome = r.value;
      lane.side = { ...lane.side, done: true };
    } else {
      lane.side = { ...lane.side, previous: lane.side.frame, frame: r.value };
      moved = true;
    }
  }
  return moved;
}

async function lanesOf(replay: Replay, every: number): Promise<Lane[]> {
  const lanes: Lane[] = [];
  for (const track of replay.tracks) {
    const frames = track.frames(every);
    const first = await frames.next();
    if (first.done) throw new Error('replay without a start frame');
    lanes.push({ track, frames, side: { bot: track.bot, total: track.moveCount, frame: first.value, done: false } });
  }
  return lanes;
}

/** Runs every lane to its end (the frames in between are skipped), so the outcomes are known. */
async function drain(lanes: Lane[]): Promise<void> {
  while (lanes.some((l) => !l.side.done)) await advance(lanes);
}

/** The closing lines: what re-validation says against each stored result. Exit 1 on any mismatch. */
function verdicts(lanes: readonly Lane[]): { text: string; ok: boolean } {
  const checks = lanes.map((l) => ({ bot: l.track.bot, ...checkReplay(l.track.stored, l.outcome!) }));
  return { text: checks.map((c) => `${c.bot}: ${c.text}`).join('\n') + '\n', ok: checks.every((c) => c.ok) };
}

const screenSize = () => ({ cols: process.stdout.columns || 80, rows: (process.stdout.rows || 24) - 4 });

/** Registers `arena replay`. */
export function registerReplay(program: Command, print: (text: string) => void, setExit: (code: number) => void, info: (text: string) => void): void {
  program
    .command('replay')
    .description(summaryOf('replay'))
    .argument('<match>', 'match id (arena matches lists them)')
    .argument('<scramble>', 'scramble number, 1-based as in the report')
    .argument('[bot]', "the bot whose answer to show (default the match's first bot)")
    .option('--bot2 <bot>', 'a second bot, shown beside the first')
    .option('--step', 'one move per Enter (q + Enter stops); needs a terminal')
    .option('--fps <n>', 'animate at n frames per second; needs a terminal')
    .option('--frames', 'print every position one after another (every k-th with --every)')
    .option('--every <k>', `a frame after every k-th move (default 1; answers over ${AUTO_EVERY_ABOVE} moves: about 1000 frames)`)
    .option('--json', 'the positions as JSON Lines {"bot","index","move","state"}, then one {"bot","check"} line per bot')
    .option('--db <file>', 'results database (default ARENA_DB or ./leaderboard.db)')
    .action(async (matchText: string, scrambleText: string, bot: string | undefined, f: ReplayFlags) => {
      const match = matchIdArg(matchText);
      const scramble = intFlag('scramble', scrambleText, { min: 1, max: Number.MAX_SAFE_INTEGER })!;
      const fps = f.fps !== undefined ? intFlag('fps', f.fps, { min: 1, max: 1000 }) : undefined;
      const explicitEvery = intFlag('every', f.every, { min: 1, max: Number.MAX_SAFE_INTEGER });
      const modes = [f.step, fps !== undefined, f.frames, f.json].filter(Boolean).length;
      if (modes > 1) throw new CliError('choose one of --step, --fps, --frames and --json');
      if ((f.step || fps !== undefined) && !process.stdout.isTTY) throw new CliError('--step and --fps need a terminal; use --frames or --json to print the positions');
      const bots = [...(bot !== undefined ? [bot] : []), ...(f.bot2 !== undefined ? [f.bot2] : [])];
      if (f.bot2 !== undefined && bot === undefined) throw new CliError('--bot2 needs the first bot named too: arena replay <match> <scramble> <bot> --bot2 <other>');
      const everyFrame = modes > 0;

      await withApp(f.db, async (ctx) => {
        const replay = must(await replayMatch(ctx, { match, scramble, bots }));
        // Huge answers get a frame spacing that keeps the output to about a thousand positions.
        const longest = Math.max(...replay.tracks.map((t) => t.moveCount));
        let every = explicitEvery ?? 1;
        if (!everyFrame) every = Math.max(1, longest);
        else if (explicitEvery === undefined && longest > AUTO_EVERY_ABOVE) {
          every = Math.ceil(longest / 1000);
          info(`(${longest.toLocaleString('en-US')} moves: one frame every ${every.toLocaleString('en-US')} moves; --every 1 shows them all)`);
        }
        const head = `match ${replay.match.id} · scramble ${scramble} · ${replay.scramble.puzzleClass}`;

        if (f.json) {
          for (const t of replay.tracks) {
            const frames = t.frames(every);
            let r = await frames.next();
            for (; !r.done; r = await frames.next()) print(frameJson(t.bot, r.value));
            const check = checkReplay(t.stored, r.value);
            print(JSON.stringify({ bot: t.bot, check: { ok: check.ok, text: check.text, verdict: r.value.verdict, moves: r.value.moves, recorded: { verdict: t.stored.verdict, moves: t.stored.moveCount } } }));
            if (!check.ok) setExit(1);
          }
          return { ok: true, value: undefined };
        }

        const lanes = await lanesOf(replay, every);
        const { cols, rows } = screenSize();
        const screen = () => drawScreen(lanes.map((l) => l.side), cols, rows);
        if (f.frames) {
          print(`${head}\n\n${screen()}\n`);
          while (await advance(lanes)) print(`\n${screen()}\n`);
        } else if (f.step || fps !== undefined) {
          const rl = f.step ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
          try {
            for (;;) {
              // Our own clear-screen sequence, then the bot-supplied text made visible (terminal-text.ts).
              process.stdout.write(`\x1b[H\x1b[2J${terminalText(`${head}\n\n${screen()}`)}\n`);
              if (lanes.every((l) => l.side.done)) break;
              if (rl) {
                const answer = await rl.question('Enter: next move · q: stop ');
                if (answer.trim().toLowerCase() === 'q') {
                  await drain(lanes);
                  break;
                }
              } else await new Promise((r) => setTimeout(r, 1000 / fps!));
              await advance(lanes);
            }
          } finally {
            rl?.close();
          }
        } else {
          print(`${head}\n\n${screen()}\n`);
          await drain(lanes);
          print(`\n${screen()}\n`);
        }
        const v = verdicts(lanes);
        print(`\n${v.text}`);
        if (!v.ok) setExit(1);
        return { ok: true, value: undefined };
      });
    });
}
