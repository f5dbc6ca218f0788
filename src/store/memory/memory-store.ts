/**
 * An in-memory Store on plain maps, for unit and integration tests. It mirrors the SQLite store's
 * observable behaviour: values come back as JSON copies, absent optional fields stay absent, ids count from
 * 1, a second result for a (scramble, bot) pair is ignored, and the same misuse (duplicate bot, unknown match
 * or scramble) rejects with the same kind of programmer error. Methods are async only to match the port.
 */
import type { Bound, PuzzleState, WireMoves } from '../../core/types.ts';
import { isVerdict } from '../../core/verdict.ts';
import type {
  BotRecord,
  ColumnsSince,
  MatchFilter,
  MatchRecord,
  MatchStatus,
  NewMatch,
  NewScramble,
  ResultRecord,
  ResultRow,
  ResultSummary,
  ScrambleClassCount,
  ScramblePage,
  ScrambleRecord,
  StoredRuntime,
  MatchSeals,
  SealedTables,
  SealMeta,
  Store,
  KnownOptimum,
} from '../types.ts';
import { MemorySeals } from './memory-seals.ts';
import { memoryLadder, type MemoryLadder } from './memory-ladder.ts';
import { memoryParticipants } from './memory-participants.ts';
import { memorySubmissions } from './memory-submissions.ts';
import type { SubmissionStore } from '../submission-types.ts';
import type { ParticipantStore } from '../participant-types.ts';
import { memoryStderr } from './memory-stderr.ts';
import type { StderrStore } from '../stderr-types.ts';
import { optimumSeal } from '../seal.ts';
import type { LadderStore } from '../ladder-types.ts';
import { recordedMovesDigest } from '../moves-digest.ts';
import { stateDigest, type SealKey } from '../seal.ts';
import { dropEmpty, encodeJson, keepMatch, makeBound, nowIso, storedScramble } from '../row-codec.ts';
import { inlineHead, joinStored, storedMovesOf, storedPieces, type StoredHead, type StoredMoves } from '../stored-moves.ts';
import { columnsOf, type SummaryColumns } from '../../core/summary-columns.ts';

interface StoredResult {
  readonly seq: number;
  readonly record: ResultRecord;
  /** Kept as the SQL stores keep it (a long answer in its blocks), so it is read back the same way. */
  readonly moves: StoredMoves;
}

function headOf(m: StoredMoves): StoredHead {
  return m.packed ? { form: m.form } : inlineHead(m.kind, m.text);
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
  private results: StoredResult[] = [];
  private readonly resultKeys = new Set<string>();
  private readonly optima = new Map<string, number>();
  private readonly optimaSeals = new Map<string, string>();
  private readonly ladderTables: MemoryLadder = memoryLadder(
    (seed) => [...this.matches.values()].reverse().find((m) => m.seed === seed)?.id,
    () => void this.changes++,
    () => this.sealKey,
  );
  private readonly participantTables = memoryParticipants();
  private readonly submissionTables = memorySubmissions((bot) => void this.bots.set(bot.name, dropEmpty<BotRecord>({ ...bot })));
  private readonly stderrTable = memoryStderr();
  private nextMatchId = 1;
  private nextScrambleId = 1;
  /** Counts writes that change what the leaderboard reads (see changeMarker). */
  private changes = 0;
  /** Counts deletions and bound changes (see summaryColumnsSince). */
  private rewrites = 0;
  /** The next result's id (its seq): never reused, so ids grow as in the SQL stores. */
  private nextSeq = 1;
  private readonly seals = new MemorySeals();
  private sealKey: SealKey | undefined;

  async addBot(bot: Omit<BotRecord, 'createdAt'>): Promise<void> {
    if (this.bots.has(bot.name)) throw new Error(`bot "${bot.name}" is already registered`);
    this.bots.set(bot.name, dropEmpty<BotRecord>({ ...bot, createdAt: nowIso() }));
  }

  async getBot(name: string): Promise<BotRecord | undefined> {
    const bot = this.bots.get(name);
    return bot && { ...bot };
  }

  async listBots(): Promise<BotRecord[]> {
    return [...this.bots.values()].sort((a, b) => compareText(a.name, b.name)).map((b) => ({ ...b }));
  }

  async removeBot(name: string): Promise<boolean> {
    return this.bots.delete(name);
  }

  async setBotSnapshot(name: string, snapshot: string, runtime: StoredRuntime | undefined): Promise<boolean> {
    const bot = this.bots.get(name);
    if (bot?.kind !== 'command') return false;
    const { runtime: _old, ...rest } = bot;
    this.bots.set(name, { ...rest, snapshot, ...(runtime ? { runtime } : {}) });
    return true;
  }

  async createMatch(m: NewMatch): Promise<MatchRecord> {
    if (m.scrambles.length === 0) throw new Error('createMatch: a match needs at least one scramble');
    checkIndexes(m.scrambles, new Set(), 'createMatch: two scrambles at one index');
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
    this.seals.matchCreated(this.sealKey, record);
    this.insertScrambles(record.id, m.scrambles);
    return copyMatch(record);
  }

  async getMatch(id: number): Promise<MatchRecord | undefined> {
    const m = this.matches.get(id);
    return m && copyMatch(m);
  }

  async listMatches(limit?: number, filter: MatchFilter = {}): Promise<MatchRecord[]> {
    const classes = (id: number) => [...this.scrambles.values()].filter((s) => s.matchId === id).map((s) => s.puzzleClass);
    const all = [...this.matches.values()].filter((m) => keepMatch(m, classes(m.id), filter)).sort((a, b) => b.id - a.id);
    return (limit === undefined || limit < 0 ? all : all.slice(0, limit)).map(copyMatch);
  }

  async setMatchStatus(id: number, status: MatchStatus): Promise<void> {
    const m = this.matches.get(id);
    if (!m) throw new Error(`setMatchStatus: no match ${id}`);
    this.matches.set(id, { ...m, status });
  }

  async addScrambles(matchId: number, scrambles: readonly NewScramble[]): Promise<ScrambleRecord[]> {
    if (!this.matches.has(matchId)) throw new Error(`addScrambles: no match ${matchId}`);
    // Check everything first so a failure inserts nothing, like the SQLite transaction.
    const taken = new Set((await this.listScrambles(matchId)).map((s) => s.index));
    checkIndexes(scrambles, taken, `addScrambles: match ${matchId} already has a scramble at that index`);
    return this.insertScrambles(matchId, scrambles);
  }

  async listScrambles(matchId: number, page?: ScramblePage): Promise<ScrambleRecord[]> {
    const all = [...this.scrambles.values()].filter((s) => s.matchId === matchId && (!page || s.index >= page.from)).sort((a, b) => a.index - b.index);
    return (page ? all.slice(0, Math.max(0, page.limit)) : all).map(copyScramble);
  }

  async scrambleClasses(matchId: number): Promise<ScrambleClassCount[]> {
    const counts = new Map<string, number>();
    for (const s of await this.listScrambles(matchId)) counts.set(s.puzzleClass, (counts.get(s.puzzleClass) ?? 0) + 1);
    return [...counts].map(([puzzleClass, count]) => ({ puzzleClass, count }));
  }

  async setScrambleBound(scrambleId: number, bound: Bound, note?: string): Promise<void> {
    const s = this.scrambles.get(scrambleId);
    if (!s) throw new Error(`setScrambleBound: no scramble ${scrambleId}`);
    const { boundNote: _old, ...rest } = s;
    const updated = { ...rest, bound: makeBound(bound.optimal, bound.lowerBound), ...(note !== undefined ? { boundNote: note } : {}) };
    this.scrambles.set(scrambleId, updated);
    this.changes++;
    this.rewrites++;
    this.seals.scrambleStored(this.sealKey, updated);
  }

  async recordResult(r: ResultRecord): Promise<void> {
    if (!isVerdict(r.verdict)) throw new Error(`recordResult: unknown verdict ${String(r.verdict)}`);
    if (!this.scrambles.has(r.scrambleId)) throw new Error(`recordResult: no scramble ${r.scrambleId}`);
    const key = `${r.scrambleId}\u0000${r.bot}`;
    if (this.resultKeys.has(key)) return; // first write wins
    this.resultKeys.add(key);
    // Keep the encoded moves (copies of the blocks), not the caller's values, so later mutation cannot leak in.
    const stored = storedMovesOf(r.moves);
    const moves = stored.packed ? { ...stored, blocks: stored.blocks.map((b) => b.slice()) } : stored;
    const record = dropEmpty<ResultRecord>({ ...r, moves: '' });
    this.results.push({ seq: this.nextSeq++, record, moves });
    this.changes++;
    this.seals.resultStored(this.sealKey, r, this.scrambles.get(r.scrambleId)!, this.sealKey ? recordedMovesDigest(r.moves) : '');
  }

  async recordResults(rs: readonly ResultRecord[]): Promise<void> {
    // All or none, as the SQLite transaction: everything that could refuse a result is checked first.
    for (const r of rs) {
      if (!isVerdict(r.verdict)) throw new Error(`recordResult: unknown verdict ${String(r.verdict)}`);
      if (!this.scrambles.has(r.scrambleId)) throw new Error(`recordResult: no scramble ${r.scrambleId}`);
    }
    for (const r of rs) await this.recordResult(r);
  }

  async listResults(matchId: number): Promise<ResultRow[]> {
    return this.rows((s) => s.matchId === matchId);
  }

  async getResult(scrambleId: number, bot: string): Promise<ResultRow | undefined> {
    return this.rows((s) => s.id === scrambleId).find((r) => r.bot === bot);
  }

  async getSummary(scrambleId: number, bot: string): Promise<ResultSummary | undefined> {
    return this.rows((s) => s.id === scrambleId, false).find((r) => r.bot === bot);
  }

  async removeResults(bot: string): Promise<number> {
    const before = this.results.length;
    for (const r of this.results) {
      if (r.record.bot === bot) this.seals.resultRemoved(this.sealKey, r.record.scrambleId, bot, this.scrambles.get(r.record.scrambleId)!);
    }
    this.results = this.results.filter((r) => r.record.bot !== bot);
    this.changes++;
    this.rewrites++;
    for (const key of [...this.resultKeys]) if (key.endsWith(`\u0000${bot}`)) this.resultKeys.delete(key);
    return before - this.results.length;
  }

  async allResults(puzzleClass?: string): Promise<ResultRow[]> {
    return this.rows((s) => puzzleClass === undefined || s.puzzleClass === puzzleClass);
  }

  async listSummaries(matchId: number): Promise<ResultSummary[]> {
    return this.rows((s) => s.matchId === matchId, false);
  }

  async allSummaries(puzzleClass?: string): Promise<ResultSummary[]> {
    return this.rows((s) => puzzleClass === undefined || s.puzzleClass === puzzleClass, false);
  }

  async summaryColumns(): Promise<SummaryColumns> {
    return columnsOf(await this.allSummaries());
  }

  async summaryColumnsSince(afterId: number): Promise<ColumnsSince> {
    const seqs = new Set<number>();
    let lastId = afterId;
    for (const r of this.results) {
      if (r.seq > afterId) seqs.add(r.seq);
      lastId = Math.max(lastId, r.seq);
    }
    const columns = columnsOf(this.rows(() => true, false, (seq) => seqs.has(seq)));
    return { columns, lastId, rewrites: String(this.rewrites) };
  }

  async changeMarker(): Promise<string | undefined> {
    return String(this.changes);
  }

  async sealMeta(): Promise<SealMeta> {
    return { ...this.seals.meta(), ...this.ladderTables.gameCount() };
  }

  async claimSealKey(keyCheck: string): Promise<SealMeta> {
    return this.seals.claim(keyCheck);
  }

  sealWith(key: SealKey | undefined): void {
    this.sealKey = key;
  }

  async sealHead(key: SealKey): Promise<boolean> {
    const { unsealed } = await this.sealedTables();
    return this.seals.sealHead(key, unsealed);
  }

  async sealedTables(): Promise<SealedTables> {
    const optima = [...this.optima].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, optimal]) => ({ key, optimal, ...(this.optimaSeals.has(key) ? { seal: this.optimaSeals.get(key)! } : {}) }));
    const { versions, games } = this.ladderTables.sealed();
    const none = (rows: readonly { seal?: string }[]) => rows.filter((r) => r.seal === undefined).length;
    return { optima, versions, games, unsealed: { ...this.seals.unsealed(), optima: none(optima), versions: none(versions), games: none(games) } };
  }

  async matchSeals(matchId: number): Promise<MatchSeals | undefined> {
    return this.seals.matchSeals(matchId, await this.listScrambles(matchId), await this.listSummaries(matchId));
  }

  async *readMoves(scrambleId: number, bot: string, from = 0): AsyncIterable<WireMoves> {
    const r = this.results.find((x) => x.record.scrambleId === scrambleId && x.record.bot === bot);
    if (r) yield* storedPieces(headOf(r.moves), (seq) => (r.moves.packed ? r.moves.blocks[seq] : undefined), from);
  }

  async knownOptima(keys: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const k of keys) {
      const v = this.optima.get(k);
      if (v !== undefined) out.set(k, v);
    }
    return out;
  }

  async addOptima(optima: readonly KnownOptimum[]): Promise<void> {
    for (const o of optima) {
      if (!Number.isInteger(o.optimal) || o.optimal < 0) throw new Error(`addOptima: ${o.optimal} is not a move count`);
      if (this.optima.has(o.key)) continue;
      this.optima.set(o.key, o.optimal);
      if (this.sealKey) this.optimaSeals.set(o.key, optimumSeal(this.sealKey, o.key, o.optimal));
    }
  }

  ladder(): LadderStore {
    return this.ladderTables;
  }

  participants(): ParticipantStore {
    return this.participantTables;
  }

  submissions(): SubmissionStore {
    return this.submissionTables;
  }

  stderrs(): StderrStore {
    return this.stderrTable;
  }

  async close(): Promise<void> {
    // Nothing to release; kept for the port.
  }

  private insertScrambles(matchId: number, scrambles: readonly NewScramble[]): ScrambleRecord[] {
    this.changes++;
    return scrambles.map((s) => {
      const record = storedScramble(this.nextScrambleId++, matchId, s);
      this.scrambles.set(record.id, record);
      this.seals.scrambleStored(this.sealKey, record, this.sealKey ? stateDigest(record.state) : undefined);
      return copyScramble(record);
    });
  }

  /** The joined rows of the results kept, in the SQL stores' order; with their moves joined, or without. */
  private rows(keep: (s: ScrambleRecord) => boolean): ResultRow[];
  private rows(keep: (s: ScrambleRecord) => boolean, withMoves: false, keepSeq?: (seq: number) => boolean): ResultSummary[];
  private rows(keep: (s: ScrambleRecord) => boolean, withMoves = true, keepSeq: (seq: number) => boolean = () => true): ResultSummary[] {
    const out: Array<{ row: ResultSummary | ResultRow; seq: number }> = [];
    for (const r of this.results) {
      const s = this.scrambles.get(r.record.scrambleId);
      if (!s || !keep(s) || !keepSeq(r.seq)) continue;
      const { moves: _moves, ...fields } = r.record;
      const row: ResultSummary = { ...fields, matchId: s.matchId, scrambleIndex: s.index, puzzleClass: s.puzzleClass, bound: { ...s.bound } };
      out.push({ row: withMoves ? { ...row, moves: joinStored(headOf(r.moves), () => (r.moves.packed ? r.moves.blocks : [])) } : row, seq: r.seq });
    }
    // Same order as the SQL stores: match, scramble index, then insertion.
    out.sort((a, b) => a.row.matchId - b.row.matchId || a.row.scrambleIndex - b.row.scrambleIndex || a.seq - b.seq);
    return out.map((o) => o.row);
  }
}

/** Throws when two scrambles share an index or one uses a taken index (adds each index to `taken`). */
function checkIndexes(scrambles: readonly NewScramble[], taken: Set<number>, message: string): void {
  for (const s of scrambles) {
    if (taken.has(s.index)) throw new Error(message);
    taken.add(s.index);
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
