import type { BoundEvent, MatchStartEvent, ResultEvent } from '../app/matches/matches.ts';
import { scrambleNumber } from '../core/scramble-number.ts';
import { ms } from './table.ts';
import { terminalText } from './terminal-text.ts';

/** What the progress display is told. */
export interface Progress {
  start(e: MatchStartEvent): void;
  update(e: ResultEvent): void;
  bound(e: BoundEvent): void;
  end(): void;
}

/** "1m05s", "42s", "1h02m": a duration for an ETA. */
export function duration(msLeft: number): string {
  const s = Math.max(0, Math.round(msLeft / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * The live line of a match on stderr: which match and database, a bar of finished scrambles (and plays,
 * when bots make them differ), an ETA from this run's own pace, the last result, and how far the exact
 * oracle has got. Drawn only on a terminal; the start line is printed anyway (logs want the match id).
 */
export function progressBar(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): Progress {
  let drawn = false;
  let matchId = 0;
  let bots = 1;
  let scrambles = 0;
  let firstDone = 0;
  let t0 = 0;
  let last = '';
  let oracle = '';
  const perScramble = new Map<number, number>();
  let scramblesDone = 0;
  let lastEvent: ResultEvent | undefined;

  const draw = () => {
    if (!stream.isTTY || !lastEvent) return;
    const e = lastEvent;
    const width = 20;
    const filled = Math.round((e.done / Math.max(1, e.total)) * width);
    const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
    const playsDone = e.done - firstDone;
    const eta = playsDone > 0 && e.done < e.total ? ` · ETA ${duration(((now() - t0) / playsDone) * (e.total - e.done))}` : '';
    // A resumed match's earlier results came in no event, so only the play count is exact there.
    const counts =
      bots > 1 && firstDone === 0 ? `${scramblesDone}/${scrambles} scrambles (${e.done}/${e.total} plays)` : `${e.done}/${e.total} ${bots > 1 ? 'plays' : 'scrambles'}`;
    const sprt = e.sprt ? ` · LLR ${e.sprt.llr.toFixed(2)} (${e.sprt.lower.toFixed(2)}, ${e.sprt.upper.toFixed(2)})${e.sprt.decision ? ` ${e.sprt.decision}` : ''}` : '';
    const line = `match ${matchId} [${bar}] ${counts}${eta}${sprt} · ${last}${oracle}`;
    const cols = (stream.columns || 80) - 1;
    stream.write(`\r${terminalText(line).slice(0, cols).padEnd(cols)}`);
    drawn = true;
  };

  return {
    start(s) {
      matchId = s.match.id;
      bots = s.match.bots.length;
      scrambles = s.total / Math.max(1, bots);
      firstDone = s.done;
      t0 = now();
      const resumed = s.done > 0 ? `, resuming with ${s.done} of ${s.total} plays done` : '';
      stream.write(terminalText(`match ${matchId}: ${scrambles} scrambles × ${bots} bot${bots === 1 ? '' : 's'}, seed ${s.match.seed}${resumed}; results in ${s.dbLocation}`) + '\n');
    },
    update(e) {
      const n = (perScramble.get(e.scrambleIndex) ?? 0) + 1;
      perScramble.set(e.scrambleIndex, n);
      if (n === bots) scramblesDone++;
      last = `#${scrambleNumber(e.scrambleIndex)} ${e.bot}: ${e.verdict}${e.verdict === 'solved' ? ` ${e.moves} in ${ms(e.wallMs)}` : ''}`;
      lastEvent = e;
      draw();
    },
    bound(e) {
      oracle = ` · optimum ${e.done}/${e.total}`;
      if (!lastEvent && stream.isTTY) {
        stream.write(`\rexact optimum: ${e.done}/${e.total} scrambles`);
        drawn = true;
      } else draw();
    },
    end() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}

/** One line redrawn in place on a terminal (a status that changes); nothing at all elsewhere. */
export interface LiveLine {
  /** Whether the line is drawn (the stream is a terminal): callers print plain lines otherwise. */
  readonly live: boolean;
  show(text: string): void;
  end(): void;
}

/** A {@link LiveLine} on `stream` (stderr by default). */
export function liveLine(stream: NodeJS.WriteStream = process.stderr): LiveLine {
  let drawn = false;
  return {
    live: Boolean(stream.isTTY),
    show(text) {
      if (!stream.isTTY) return;
      const cols = (stream.columns || 80) - 1;
      stream.write(`\r${terminalText(text).slice(0, cols).padEnd(cols)}`);
      drawn = true;
    },
    end() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
