/**
 * An in-memory Store on plain maps, for unit and integration tests. It mirrors the SQLite store's
 * observable behaviour: values come back as JSON copies, absent optional fields stay absent, ids count from
 * 1, and the same misuse (duplicate bot, duplicate result, unknown match or scramble) throws the same kind
 * of programmer error.
 */
import type { PuzzleState } from '../core/types.ts';
import { isVerdict } from '../core/verdict.ts';
import type { BotRecord, MatchRecord, MatchStatus, ResultRecord, ResultRow, ResultSummary, ScrambleRecord, Store } from './types.ts';
import { decodeMoves, dropEmpty, encodeJson, encodeMoves, makeBound, nowIso } from './row-codec.ts';
import type { MovesKind } from './row-codec.ts';

interface StoredResult {
  readonly seq: number;
  readonly record: ResultRecord;
  readonly movesKind: MovesKind;
  readonly movesText: string;
}

/** Creates an empty in-memory store. Nothing survives `close()` or the process. */
export function createMemoryStore(): Store {
  return new MemoryStore();
}

function jsonCopy<T>(value: T): T {
  return JSON.parse(encodeJson(value)) as T;
}

class MemoryStore implements Store {
  private readonly bots = new Map<string, BotRecord>();
  private readonly matches = new Map<number, MatchRecord>();
  private readonly scrambles = new Map<number, ScrambleRecord>();
  private readonly results: StoredResult[] = [];
  private readonly resultKeys = new Set<string>();
  private nextMatchId = 1;
  private nextScrambleId = 1;

  addBot(bot: Omit<BotRecord, 'createdAt'>): void {
    if (this.bots.has(bot.name)) throw new Error(`bot "${bot.name}" is already registered`);
    this.bots.set(bot.name, dropEmpty<BotRecord>({ ...bot, createdAt: nowIso() }));
  }

  getBot(name: string): BotRecord | undefined {
    const bot = this.bots.get(name);
    return bot && { ...bot };
  }

  listBots(): BotRecord[] {
    return [...this.bots.values()].sort((a, b) => compareText(a.name, b.name)).map((b) => ({ ...b }));
  }

  removeBot(name: string): boolean {
    return this.bots.delete(name);
  }

  createMatch(m: { config: unknown; seed: string; generatorVersion: string; bots: readonly string[] }): MatchRecord {
    const record: MatchRecord = {
      id: this.nextMatchId++,
      config: jsonCopy(m.config ?? null),
      seed: m.seed,
      generatorVersion: m.generatorVersion,
      bots: [...m.bots],
      status: 'running',
      createdAt: nowIso(),
    };
    this.matches.set(record.id, record);
    return copyMatch(record);
  }

  getMatch(id: number): MatchRecord | undefined {
    const m = this.matches.get(id);
    return m && copyMatch(m);
  }

  listMatches(limit?: number): MatchRecord[] {
    const all = [...this.matches.values()].sort((a, b) => b.id - a.id);
    return (limit === undefined || limit < 0 ? all : all.slice(0, limit)).map(copyMatch);
  }

  setMatchStatus(id: number, status: MatchStatus): void {
    const m = this.matches.get(id);
    if (!m) throw new Error(`setMatchStatus: no match ${id}`);
    this.matches.set(id, { ...m, status });
  }

  addScrambles(matchId: number, scrambles: ReadonlyArray<Omit<ScrambleRecord, 'id' | 'matchId'>>): ScrambleRecord[] {
    if (!this.matches.has(matchId)) throw new Error(`addScrambles: no match ${matchId}`);
    // Check everything first so a failure inserts nothing, like the SQLite transaction.
    const taken = new Set(this.listScrambles(matchId).map((s) => s.index));
    for (const s of scrambles) {
      if (taken.has(s.index)) throw new Error(`addScrambles: match ${matchId} already has a scramble at that index`);
      taken.add(s.index);
    }
    return scrambles.map((s) => {
      const record: ScrambleRecord = {
        id: this.nextScrambleId++,
        matchId,
        index: s.index,
        state: jsonCopy(s.state) as PuzzleState,
        puzzleClass: s.puzzleClass,
        bound: makeBound(s.bound.optimal, s.bound.lowerBound),
      };
      this.scrambles.set(record.id, record);
      return copyScramble(record);
    });
  }

  listScrambles(matchId: number): ScrambleRecord[] {
    return [...this.scrambles.values()]
      .filter((s) => s.matchId === matchId)
      .sort((a, b) => a.index - b.index)
      .map(copyScramble);
  }

  recordResult(r: ResultRecord): void {
    if (!isVerdict(r.verdict)) throw new Error(`recordResult: unknown verdict ${String(r.verdict)}`);
    if (!this.scrambles.has(r.scrambleId)) throw new Error(`recordResult: no scramble ${r.scrambleId}`);
    const key = `${r.scrambleId}\u0000${r.bot}`;
    if (this.resultKeys.has(key)) {
      throw new Error(`recordResult: bot "${r.bot}" already has a result for scramble ${r.scrambleId}`);
    }
    this.resultKeys.add(key);
    // Keep the encoded moves, not the caller's array, so later mutation by the caller cannot leak in.
    const moves = encodeMoves(r.moves);
    const record = dropEmpty<ResultRecord>({ ...r, moves: '' });
    this.results.push({ seq: this.results.length, record, movesKind: moves.kind, movesText: moves.text });
  }

  listResults(matchId: number): ResultRow[] {
    return this.rows((s) => s.matchId === matchId);
  }

  allResults(puzzleClass?: string): ResultRow[] {
    return this.rows((s) => puzzleClass === undefined || s.puzzleClass === puzzleClass);
  }

  listSummaries(matchId: number): ResultSummary[] {
    return this.listResults(matchId).map(withoutMoves);
  }

  allSummaries(puzzleClass?: string): ResultSummary[] {
    return this.allResults(puzzleClass).map(withoutMoves);
  }

  close(): void {
    // Nothing to release; kept for the port.
  }

  private rows(keep: (s: ScrambleRecord) => boolean): ResultRow[] {
    const out: Array<{ row: ResultRow; seq: number }> = [];
    for (const r of this.results) {
      const s = this.scrambles.get(r.record.scrambleId);
      if (!s || !keep(s)) continue;
      const row: ResultRow = {
        ...r.record,
        moves: decodeMoves(r.movesKind, r.movesText),
        matchId: s.matchId,
        scrambleIndex: s.index,
        puzzleClass: s.puzzleClass,
        bound: { ...s.bound },
      };
      out.push({ row, seq: r.seq });
    }
    // Same order as the SQLite query: match, scramble index, then insertion.
    out.sort((a, b) => a.row.matchId - b.row.matchId || a.row.scrambleIndex - b.row.scrambleIndex || a.seq - b.seq);
    return out.map((o) => o.row);
  }
}

function copyMatch(m: MatchRecord): MatchRecord {
  return { ...m, config: jsonCopy(m.config), bots: [...m.bots] };
}

function copyScramble(s: ScrambleRecord): ScrambleRecord {
  return { ...s, state: jsonCopy(s.state), bound: { ...s.bound } };
}

/** Byte-wise order, like SQLite's default BINARY collation. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function withoutMoves({ moves: _moves, ...rest }: ResultRow): ResultSummary {
  return rest;
}
