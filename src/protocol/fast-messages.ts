/**
 * Plain-code checks of the messages every solve carries (a bot's `moves`, the referee's `solve` envelope and
 * `result`), tried before the zod schemas of schema.ts: a round trip to a fast bot is a few hundred
 * microseconds, and walking zod's object schemas was a visible part of it on both sides.
 *
 * Each check accepts exactly what its schema accepts and returns the parsed JSON value itself, so it only
 * answers when every key is one the schema knows (zod would strip the others) and every value has the
 * schema's type and range. Anything else returns undefined and goes to zod, which also words the reason.
 */
import { VERDICTS } from '../core/verdict.ts';

/** The largest id the schemas accept (schema.ts). */
const MAX_ID = 200;
/** The largest `note` and `reason` the bot schemas accept. */
const MAX_TEXT = 10_000;

const MOVES_KEYS = new Set(['type', 'id', 'moves', 'final', 'info']);
const INFO_KEYS = new Set(['optimal', 'computeMs', 'nodes', 'note']);
const RESULT_KEYS = new Set(['type', 'id', 'verdict', 'moves', 'timeMs', 'index', 'reason']);
const SOLVE_KEYS = new Set(['type', 'id', 'puzzle', 'timeLimitMs', 'maxMoves']);
const VERDICT_SET: ReadonlySet<unknown> = new Set(VERDICTS);

type Json = Record<string, unknown>;

function isId(v: unknown): boolean {
  return typeof v === 'string' && v.length >= 1 && v.length <= MAX_ID;
}

function isPlainObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every own key of `o` is in `keys` (JSON.parse makes own data properties only, `__proto__` included). */
function keysWithin(o: Json, keys: ReadonlySet<string>): boolean {
  for (const k in o) if (!keys.has(k)) return false;
  return true;
}

const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
/** Finite as well: `1e999` parses to Infinity, which zod's number refuses, so this must refuse it too. */
const isNonNegative = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** The same test as schema.ts's pair check: an array of [integer, integer]. */
function isPairArray(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const p: unknown = v[i];
    if (!Array.isArray(p) || p.length !== 2 || !Number.isInteger(p[0]) || !Number.isInteger(p[1])) return false;
  }
  return true;
}

function isInfo(v: unknown): boolean {
  if (!isPlainObject(v) || !keysWithin(v, INFO_KEYS)) return false;
  if (v.optimal !== undefined && typeof v.optimal !== 'boolean') return false;
  if (v.computeMs !== undefined && !isNonNegative(v.computeMs)) return false;
  if (v.nodes !== undefined && !isNonNegative(v.nodes)) return false;
  return v.note === undefined || (typeof v.note === 'string' && v.note.length <= MAX_TEXT);
}

/** A bot's `moves` message that its schema accepts as it is, or undefined (let zod decide). */
export function fastMovesMessage(json: Json): Json | undefined {
  if (!keysWithin(json, MOVES_KEYS) || !isId(json.id) || typeof json.final !== 'boolean') return undefined;
  if (typeof json.moves !== 'string' && !isPairArray(json.moves)) return undefined;
  if (json.info !== undefined && !isInfo(json.info)) return undefined;
  return json;
}

/** The referee's `result` message that its schema accepts as it is, or undefined. */
export function fastResultMessage(json: Json): Json | undefined {
  if (!keysWithin(json, RESULT_KEYS) || !isId(json.id) || !VERDICT_SET.has(json.verdict)) return undefined;
  if (!isCount(json.moves) || !isNonNegative(json.timeMs)) return undefined;
  if (json.index !== undefined && !isCount(json.index)) return undefined;
  if (json.reason !== undefined && typeof json.reason !== 'string') return undefined;
  return json;
}

/**
 * The envelope of the referee's `solve` message (everything but the puzzle, which the caller checks with its
 * kind's wire shape), or false when zod must decide.
 */
export function fastSolveEnvelope(json: Json): boolean {
  return keysWithin(json, SOLVE_KEYS) && isId(json.id) && isNonNegative(json.timeLimitMs) && isCount(json.maxMoves) && isPlainObject(json.puzzle);
}
