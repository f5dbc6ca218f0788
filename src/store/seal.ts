/**
 * Seals: keyed digests (HMAC-SHA256) the referee writes beside what it stores, in the same transaction, so
 * that `arena audit` can tell a stored time, verdict or row from one edited afterwards by someone who can
 * write the database but does not hold the key (which lives outside it, see src/app/seal-keys.ts).
 *
 * What is sealed, and why each is enough:
 * - a match: its id, its number among the database's sealed matches, configuration, seed, generator version
 *   and bots (the rules its results were judged by), and the database's count of sealed matches, so a match
 *   deleted whole leaves a gap;
 * - a scramble: its match, index, a SHA-256 of its state, its class and its bound (rewritten, and resealed,
 *   when the exact oracle answers), so a changed state or optimum is seen;
 * - a result: its match, scramble index and bot, its number `seq` in the match (1, 2, 3… in the order
 *   recorded), every stored field and a SHA-256 of its moves;
 * - the match's count of sealed results, rewritten with each result: a deleted row leaves a gap in the
 *   numbers or a count its seal no longer matches, and an inserted row has no seal (or a wrong one);
 * - a removal (`arena bot remove --purge`): which numbered result went, so a legitimate deletion is told
 *   from an edit.
 * - the head: the database's key check, its watermark (the largest match and result ids when it got its key)
 *   and how many rows of each sealed table were older than the key, so none of the three can be raised to
 *   pass inserted or unsealed rows off as old ones;
 * - an exact optimum of the shared cache: its state key and length, so a planted optimum is seen;
 * - a ladder version (its bot, number, hash, command and folder) and a ladder game (its seed, class,
 *   purpose, subject, which version each bot played as, why, and its match), so the ladder's ranking
 *   cannot be changed by swapping which version played which game; and the count of sealed ladder games
 *   (each numbered), so a game deleted whole leaves a gap.
 * Every seal also names the database (its random id), so rows moved between databases do not verify.
 *
 * Strings are sealed in the form every store can keep them (well-formed UTF-16, NUL as U+FFFD): a bot's note
 * with a lone surrogate is stored replaced (row-codec.ts wellFormed), and must not then look tampered with.
 */
import { createHash, createHmac } from 'node:crypto';
import type { Bound } from '../core/types.ts';
import type { BotVersion, LadderGame } from './ladder-types.ts';
import { wellFormed } from './row-codec.ts';
import type { SealKey, UnsealedCounts } from './types.ts';

export type { SealKey } from './types.ts';

const DOMAIN = 'puzzle-arena seal v1';

/** A string as every store keeps it. */
function clean(s: string | undefined | null): string | null {
  if (s === undefined || s === null) return null;
  return wellFormed(s).replaceAll('\u0000', '\uFFFD');
}

function mac(key: Uint8Array, what: string, fields: readonly unknown[]): string {
  return createHmac('sha256', key).update(JSON.stringify([DOMAIN, what, ...fields])).digest('hex');
}

/** SHA-256 of a text (its UTF-8) or bytes, as hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The SHA-256 a scramble's state is sealed by: of its JSON text, as stored. */
export function stateDigest(state: unknown): string {
  return sha256Hex(JSON.stringify(state));
}

/**
 * What tells the right key from another without revealing it: the seal of nothing. A database records it
 * when it gets its key; a key file whose check differs is another database's key.
 */
export function keyCheck(key: Uint8Array): string {
  return mac(key, 'key', []);
}

/** What a match's seal covers: its number among the database's sealed matches too. */
export interface MatchSealed {
  readonly id: number;
  readonly seq: number;
  readonly config: unknown;
  readonly seed: string;
  readonly generatorVersion: string;
  readonly bots: readonly string[];
}

export function matchSeal(k: SealKey, m: MatchSealed): string {
  return mac(k.key, 'match', [k.dbId, m.id, m.seq, JSON.stringify(m.config) ?? 'null', clean(m.seed), clean(m.generatorVersion), m.bots.map(clean)]);
}

/** What a scramble's seal covers. */
export interface ScrambleSealed {
  readonly matchId: number;
  readonly index: number;
  readonly stateSha256: string;
  readonly puzzleClass: string;
  readonly bound: Bound;
  readonly boundNote?: string;
}

export function scrambleSeal(k: SealKey, s: ScrambleSealed): string {
  const b = s.bound;
  return mac(k.key, 'scramble', [k.dbId, s.matchId, s.index, s.stateSha256, clean(s.puzzleClass), b.optimal ?? null, b.lowerBound, clean(s.boundNote)]);
}

/** What a result's seal covers: every stored field, its place, its number in the match and its moves' digest. */
export interface ResultSealed {
  readonly matchId: number;
  readonly scrambleIndex: number;
  readonly bot: string;
  readonly seq: number;
  readonly verdict: string;
  readonly moveCount: number;
  readonly movesSha256: string;
  readonly wallMs: number;
  readonly cpuMs?: number;
  readonly reportedMs?: number;
  readonly claimedOptimal?: boolean;
  readonly note?: string;
  readonly nodes?: number;
  readonly errorIndex?: number;
  readonly error?: string;
  readonly worker?: string;
  readonly cpu?: string;
}

export function resultSeal(k: SealKey, r: ResultSealed): string {
  return mac(k.key, 'result', [
    k.dbId, r.matchId, r.scrambleIndex, clean(r.bot), r.seq, r.verdict, r.moveCount, r.movesSha256, r.wallMs,
    r.cpuMs ?? null, r.reportedMs ?? null, r.claimedOptimal ?? null, clean(r.note), r.nodes ?? null,
    r.errorIndex ?? null, clean(r.error), clean(r.worker), clean(r.cpu),
  ]);
}

/** The seal of the database's count of sealed matches. */
export function matchCountSeal(k: SealKey, count: number): string {
  return mac(k.key, 'matches', [k.dbId, count]);
}

/** The seal of a match's count of sealed results. */
export function countSeal(k: SealKey, matchId: number, count: number): string {
  return mac(k.key, 'count', [k.dbId, matchId, count]);
}

/** What a removal's seal covers: the result that went, by its number, place and bot. */
export interface RemovalSealed {
  readonly matchId: number;
  readonly seq: number;
  readonly scrambleIndex: number;
  readonly bot: string;
}

export function removalSeal(k: SealKey, r: RemovalSealed): string {
  return mac(k.key, 'removed', [k.dbId, r.matchId, r.seq, r.scrambleIndex, clean(r.bot)]);
}

/** What the head covers (see the header). */
export interface HeadSealed {
  readonly keyCheck: string;
  readonly sealedAfter: { readonly match: number; readonly result: number };
  readonly preKey: UnsealedCounts;
}

export function headSeal(k: SealKey, h: HeadSealed): string {
  const p = h.preKey;
  return mac(k.key, 'head', [k.dbId, h.keyCheck, h.sealedAfter.match, h.sealedAfter.result, p.matches, p.results, p.optima, p.versions, p.games]);
}

/** The seal of the database's count of sealed ladder games: a game deleted whole leaves a gap. */
export function gamesCountSeal(k: SealKey, count: number): string {
  return mac(k.key, 'games', [k.dbId, count]);
}

/** The seal of one cached exact optimum. */
export function optimumSeal(k: SealKey, stateKey: string, optimal: number): string {
  return mac(k.key, 'optimum', [k.dbId, clean(stateKey), optimal]);
}

/** The seal of a ladder version: what identifies it (its status and notes change as the ladder works). */
export function versionSeal(k: SealKey, v: Pick<BotVersion, 'id' | 'bot' | 'number' | 'hash' | 'command' | 'folder'>): string {
  return mac(k.key, 'version', [k.dbId, v.id, clean(v.bot), v.number, clean(v.hash), clean(v.command), clean(v.folder)]);
}

/** The seal of a ladder game, its number among the sealed games and its match included (resealed when the match is set). */
export function gameSeal(k: SealKey, g: Omit<LadderGame, 'createdAt'>, seq: number): string {
  return mac(k.key, 'game', [
    k.dbId, g.id, seq, clean(g.seed), clean(g.puzzleClass), g.purpose, g.subject ?? null,
    g.entries.map((e) => [clean(e.bot), e.versionId]), clean(g.why), g.matchId ?? null,
  ]);
}
