import type { MatchReport, ReportResult, ReportScramble } from '../app/matches/matches.ts';
import { ms, renderTable } from './table.ts';

/**
 * Numbered footnotes: each distinct text gets one number, so a reason shared by a hundred results (a bot
 * declining the class) is printed once.
 */
class Footnotes {
  private readonly numbers = new Map<string, number>();
  /** The marker of `text`, e.g. "[2]". */
  mark(text: string): string {
    let n = this.numbers.get(text);
    if (n === undefined) this.numbers.set(text, (n = this.numbers.size + 1));
    return `[${n}]`;
  }
  lines(): string[] {
    return [...this.numbers].map(([text, n]) => `  [${n}] ${text}`);
  }
}

/** The best column: `=n` the exact optimum, `≥n` a lower bound (with the reason it is only a bound). */
function best(s: ReportScramble, notes: Footnotes): string {
  if (s.optimal !== undefined) return `=${s.optimal}`;
  return `≥${s.lowerBound}${s.boundNote ? notes.mark(`bound only: ${s.boundNote}`) : ''}`;
}

/** One bot's cell: moves and time when solved, else the verdict with a footnote giving the reason. */
function cell(x: ReportResult | undefined, s: ReportScramble, notes: Footnotes): string {
  if (!x) return '(not played)';
  if (x.verdict === 'solved') {
    const refuted = x.claimContradicted ? notes.mark(`${x.bot} claimed an optimal answer; the optimum is ${s.optimal}`) : '';
    return `${x.moves} in ${ms(x.timeMs)}${refuted}`;
  }
  const at = x.index !== undefined ? ` @${x.index}` : '';
  const why = x.reason ? notes.mark(`${x.verdict}${at}: ${x.reason}`) : '';
  return `${x.verdict}${at}${why}`;
}

/** Who won the scramble, "time" when equal moves were split by the time margin; "draw"; blank while incomplete. */
function winner(s: ReportScramble): string {
  if (s.winner === undefined) return '';
  if (s.winner === null) return 'draw';
  return s.decidedBy === 'time' ? `${s.winner} (time)` : s.winner;
}

/**
 * The per-scramble table: the optimum or bound, each bot's result, the winner; then a legend and the
 * footnotes (the reason of every result that is not solved, why a bound is only a bound, refuted claims).
 */
export function formatScrambleTable(r: MatchReport): string[] {
  const bots = r.match.bots;
  const notes = new Footnotes();
  const duel = bots.length > 1;
  const rows: string[][] = [['#', 'best', ...bots, ...(duel ? ['winner'] : [])]];
  const byScramble = new Map<number, Map<string, ReportResult>>();
  for (const x of r.results) {
    let per = byScramble.get(x.scramble);
    if (!per) byScramble.set(x.scramble, (per = new Map()));
    per.set(x.bot, x);
  }
  for (const s of r.scrambles) {
    const per = byScramble.get(s.scramble);
    rows.push([String(s.scramble), best(s, notes), ...bots.map((b) => cell(per?.get(b), s, notes)), ...(duel ? [winner(s)] : [])]);
  }
  const out = [renderTable(rows, new Set([0, 1])), '', 'best: =n the exact optimum, ≥n a lower bound (the optimum is at least n)'];
  if (duel) out.push('winner: solved beats unsolved, then fewer moves, then clearly faster ("time": equal moves, decided by the time margin)');
  const foot = notes.lines();
  if (foot.length) out.push('notes:', ...foot);
  return out;
}
