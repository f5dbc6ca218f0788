import { randomInt } from 'node:crypto';
import type { Command } from 'commander';
import type { PuzzleState, ScrambleSpec } from '../../core/types.ts';
import type { MatchConfig } from '../../referee/match-config.ts';
import { MATCH_DEFAULTS } from '../../referee/match-config.ts';
import { buildMatchReport, type MatchReport } from '../../referee/match-report.ts';
import { resumeMatch, startMatch, type MatchRun, type ResultEvent } from '../../referee/run-match.ts';
import { DEFAULT_KIND, puzzleKinds, puzzles } from '../../puzzles/index.ts';
import { generateScrambles } from '../../referee/scrambles.ts';
import { hashToken } from '../../transport/tokens.ts';
import { systemClock } from '../../transport/system-clock.ts';
import { startArenaServer } from '../../transport/ws-server.ts';
import { launcherFor, resolveBot, type ResolvedBot } from '../bot-resolver.ts';
import { openStore } from '../context.ts';
import { CliError, must } from '../errors.ts';
import { formatMatchReport } from '../format-report.ts';
import { durationFlag, intFlag, sizeFlagHelp, specFromFlags } from '../parse-flags.ts';
import { loadPreset } from '../preset.ts';
import { parseScrambles, textOrFile } from '../read-input.ts';

/** Typed options of `arena match`. */
export interface MatchOptions {
  readonly bots: readonly string[];
  readonly spec?: ScrambleSpec;
  readonly scrambleFile?: string;
  readonly count: number;
  readonly seed: string;
  readonly walk?: number;
  readonly timeLimitMs: number;
  readonly maxMoves: number;
  readonly concurrency: number;
  readonly marginMs?: number;
  readonly resume?: number;
  readonly db?: string;
  readonly listen?: { host: string; port: number };
  readonly json: boolean;
}

/** What the action needs from the terminal. */
export interface MatchIo {
  readonly signal: AbortSignal;
  progress(e: ResultEvent): void;
  info(text: string): void;
}

/** Runs (or resumes) a match and returns its report; exit code 0 finished, 130 interrupted. */
export async function matchAction(o: MatchOptions, io: MatchIo): Promise<{ report: MatchReport; text: string; exitCode: number }> {
  const { store } = openStore(o.db);
  try {
    let botNames: readonly string[] = o.bots;
    let states: PuzzleState[] = [];
    if (o.resume !== undefined) {
      const m = await store.getMatch(o.resume);
      if (!m) throw new CliError(`no match with id ${o.resume}`);
      if (m.status === 'finished') throw new CliError(`match ${o.resume} is already finished`);
      botNames = m.bots;
    } else {
      if (botNames.length === 0) throw new CliError('name at least one bot (arena bot list shows them)');
      if (new Set(botNames).size !== botNames.length) throw new CliError('a bot is named twice');
      states = o.scrambleFile
        ? parseScrambles(textOrFile(o.scrambleFile), o.scrambleFile)
        : must(generateScrambles(o.spec ?? puzzles[DEFAULT_KIND].defaultSpec, o.count, o.seed, o.walk));
    }
    const resolved = new Map<string, ResolvedBot>();
    for (const b of botNames) resolved.set(b, await resolveBot(b, store));
    const remoteTokens = new Map((await store.listBots()).filter((b) => b.kind === 'remote' && b.tokenHash).map((b) => [b.tokenHash!, b.name]));
    const server = await startArenaServer({
      ...(o.listen ? { host: o.listen.host, port: o.listen.port } : {}),
      authenticate: (token) => remoteTokens.get(hashToken(token)),
    });
    try {
      for (const r of resolved.values()) {
        if (r.source === 'remote') io.info(`waiting for remote bot ${r.name} to dial ${server.url} with its token`);
      }
      const deps = {
        store,
        clock: systemClock,
        signal: io.signal,
        onResult: io.progress,
        makeLauncher: (bot: string) => launcherFor(resolved.get(bot)!, server, { startTimeoutMs: 30_000 }),
      };
      let run: MatchRun;
      if (o.resume !== undefined) {
        run = must(await resumeMatch(o.resume, deps));
      } else {
        const config: MatchConfig = {
          bots: botNames,
          ...(o.spec && !o.scrambleFile ? { spec: o.spec } : {}),
          count: states.length,
          seed: o.seed,
          ...(o.walk !== undefined ? { walk: o.walk } : {}),
          ...(o.scrambleFile ? { scrambleFile: o.scrambleFile } : {}),
          timeLimitMs: o.timeLimitMs,
          maxMoves: o.maxMoves,
          concurrency: o.concurrency,
          ...(o.marginMs !== undefined ? { marginMs: o.marginMs } : {}),
        };
        run = await startMatch(config, states, deps);
      }
      const report = buildMatchReport(run.match, await store.listScrambles(run.match.id), await store.listSummaries(run.match.id));
      let text = o.json ? JSON.stringify(report) + '\n' : formatMatchReport(report);
      if (run.status === 'interrupted') text += `\nmatch ${run.match.id} interrupted; finish it with: arena match --resume ${run.match.id}\n`;
      return { report, text, exitCode: run.status === 'finished' ? 0 : 130 };
    } finally {
      await server.close();
    }
  } finally {
    await store.close();
  }
}

interface MatchFlags {
  puzzle?: string;
  size?: string;
  rows?: string;
  cols?: string;
  discs?: string;
  randomGoal?: boolean;
  count?: string;
  seed?: string;
  walk?: string;
  scrambles?: string;
  timeLimit?: string;
  maxMoves?: string;
  concurrency?: string;
  margin?: string;
  preset?: string;
  resume?: string;
  db?: string;
  listen?: string;
  json?: boolean;
}

/** Maps flags (over an optional preset) to typed options. */
export function matchOptionsFromFlags(bots: string[], f: MatchFlags): MatchOptions {
  const p = f.preset ? loadPreset(f.preset) : {};
  const str = (v: unknown) => (v === undefined ? undefined : String(v));
  const kind = f.puzzle ?? p.puzzle ?? DEFAULT_KIND;
  const sizeFlags = f.size ?? f.rows ?? f.cols ?? f.discs;
  const spec = specFromFlags(kind, {
    size: sizeFlags !== undefined ? f.size : str(p.size),
    rows: sizeFlags !== undefined ? f.rows : str(p.rows),
    cols: sizeFlags !== undefined ? f.cols : str(p.cols),
    discs: sizeFlags !== undefined ? f.discs : str(p.discs),
    randomGoal: f.randomGoal ?? p.randomGoal ?? false,
  });
  const resume = intFlag('resume', f.resume);
  const walk = intFlag('walk', f.walk ?? str(p.walk), 0);
  const margin = f.margin !== undefined ? durationFlag('margin', f.margin) : undefined;
  const listen = f.listen !== undefined ? parseListen(f.listen) : undefined;
  return {
    bots: bots.length ? bots : (p.bots ?? []),
    spec,
    ...((f.scrambles ?? p.scrambles) ? { scrambleFile: f.scrambles ?? p.scrambles } : {}),
    count: intFlag('count', f.count ?? str(p.count)) ?? MATCH_DEFAULTS.count,
    seed: f.seed ?? str(p.seed) ?? String(randomInt(0, 2 ** 31)),
    ...(walk !== undefined ? { walk } : {}),
    timeLimitMs: durationFlag('time-limit', f.timeLimit ?? p.timeLimit) ?? MATCH_DEFAULTS.timeLimitMs,
    maxMoves: intFlag('max-moves', f.maxMoves ?? str(p.maxMoves)) ?? MATCH_DEFAULTS.maxMoves,
    concurrency: intFlag('concurrency', f.concurrency ?? str(p.concurrency)) ?? MATCH_DEFAULTS.concurrency,
    ...(margin !== undefined ? { marginMs: margin } : {}),
    ...(resume !== undefined ? { resume } : {}),
    ...(f.db ? { db: f.db } : {}),
    ...(listen ? { listen } : {}),
    json: Boolean(f.json),
  };
}

function parseListen(v: string): { host: string; port: number } {
  const m = /^(.*):(\d+)$/.exec(v);
  if (!m) throw new CliError(`--listen must be host:port, got "${v}"`);
  const port = Number(m[2]);
  if (port > 65535) throw new CliError(`--listen port ${port} is out of range`);
  return { host: m[1] || '127.0.0.1', port };
}

/** Registers `arena match`. */
export function registerMatch(program: Command, run: (o: MatchOptions) => Promise<void>): void {
  program
    .command('match')
    .description('play bots on identical scrambles; validate, record and report (one bot = a benchmark run)')
    .argument('[bots...]', 'bot names (built-in or registered); quote to pass flags: "ida-star --weight 2"')
    .option('--puzzle <kind>', `${puzzleKinds().join(' | ')} (default ${DEFAULT_KIND})`)
    .option('--size <n>', sizeFlagHelp('size'))
    .option('--rows <R>', sizeFlagHelp('rows'))
    .option('--cols <C>', sizeFlagHelp('cols'))
    .option('--discs <N>', sizeFlagHelp('discs'))
    .option('--random-goal', sizeFlagHelp('randomGoal'))
    .option('--count <K>', `number of scrambles (default ${MATCH_DEFAULTS.count})`)
    .option('--seed <S>', 'seed for the scrambles (default: a random one, printed and stored)')
    .option('--walk <k>', 'scramble by a random walk of k moves instead of a uniform state')
    .option('--scrambles <file>', 'play the scrambles of a JSON Lines file instead of generating them')
    .option('--time-limit <t>', 'per scramble and bot, e.g. 500ms, 10s (default 10s)')
    .option('--max-moves <n>', `most moves accepted per answer (default ${MATCH_DEFAULTS.maxMoves})`)
    .option('--concurrency <n>', 'parallel jobs, each with its own bot processes (default 1)')
    .option('--margin <t>', 'equal moves: faster wins only beyond this margin (default 10% of the slower, ≥ 5ms)')
    .option('--preset <name|file>', 'load defaults from matches/<name>.json')
    .option('--resume <id>', 'finish an interrupted match: play only what has no result yet')
    .option('--listen <host:port>', 'where remote bots dial in (default 127.0.0.1 on a free port)')
    .option('--db <file>', 'results database (default ARENA_DB or ./leaderboard.db)')
    .option('--json', 'print {"match","results":[...],"summary"} instead of tables')
    .action(async (bots: string[], f: MatchFlags) => run(matchOptionsFromFlags(bots, f)));
}
