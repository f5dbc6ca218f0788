/**
 * Runtime validation of every message that crosses the wire. Both directions parse untrusted text into the
 * typed messages of messages.ts and return a value, never throw: a bot that sends garbage gets a `protocol`
 * verdict, it does not crash the referee. The raw text is checked against the message bounds (bytes, depth,
 * width, string lengths) before JSON.parse, so nothing below ever sees a value deep or wide enough to hurt.
 */
import { z } from 'zod';
import { PUZZLE_KINDS } from '../core/puzzle-kinds.ts';
import { VERDICTS } from '../core/verdict.ts';
import { puzzles } from '../puzzles/index.ts';
import type { MessageBounds } from './bounds.ts';
import { BOT_MESSAGE_BOUNDS, checkBounds, REFEREE_MESSAGE_BOUNDS } from './bounds.ts';
import type { BotMessage, RefereeMessage } from './messages.ts';
import { fastMovesMessage, fastResultMessage, fastSolveEnvelope } from './fast-messages.ts';

/** The outcome of parsing one message. */
export type ParseResult<M> = { readonly ok: true; readonly message: M } | { readonly ok: false; readonly reason: string };

/** Ids are referee-chosen; the cap only stops a bot from echoing megabytes back in error texts. */
const id = z.string().min(1).max(200);
const int = z.number().int();
const count = z.number().int().nonnegative();

/**
 * Swap pairs are validated with a plain loop rather than z.tuple: a chunk may hold 100k pairs and the
 * referee validates every chunk of multi-million-move answers.
 */
function isPairArray(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const p: unknown = v[i];
    if (!Array.isArray(p) || p.length !== 2 || !Number.isInteger(p[0]) || !Number.isInteger(p[1])) return false;
  }
  return true;
}

const wireMoves = z.custom<string | Array<[number, number]>>((v) => typeof v === 'string' || isPairArray(v), {
  message: 'expected a string or an array of [integer, integer] pairs',
});

const capability = z.object({
  kind: z.enum(PUZZLE_KINDS),
  maxSize: z.number().int().positive().optional(),
  prepare: z.boolean().optional(),
});

const solveInfo = z.object({
  optimal: z.boolean().optional(),
  computeMs: z.number().nonnegative().optional(),
  nodes: z.number().nonnegative().optional(),
  note: z.string().max(10_000).optional(),
});

const botSchemas = {
  hello: z.object({
    type: z.literal('hello'),
    protocol: int,
    name: z.string().min(1).max(200),
    version: z.string().max(200),
    capabilities: z.array(capability).max(64),
    reuse: z.boolean().optional(),
  }),
  moves: z.object({ type: z.literal('moves'), id, moves: wireMoves, final: z.boolean(), info: solveInfo.optional() }),
  'give-up': z.object({ type: z.literal('give-up'), id, reason: z.string().max(10_000).optional() }),
  unsupported: z.object({ type: z.literal('unsupported'), id, reason: z.string().max(10_000).optional() }),
  ready: z.object({ type: z.literal('ready'), id }),
} as const;

/**
 * Structural check only, each kind's wire shape: the puzzle kind modules do the deep parse (tile ranges,
 * permutations, sizes). zod asks for a non-empty list, which PUZZLE_KINDS is.
 */
const [firstKind, ...otherKinds] = PUZZLE_KINDS;
const puzzle = z.discriminatedUnion('kind', [puzzles[firstKind].wireShape, ...otherKinds.map((k) => puzzles[k].wireShape)]);

const refereeSchemas = {
  welcome: z.object({
    type: z.literal('welcome'),
    protocol: int,
    session: z.string(),
    limits: z.object({ maxPayload: count }),
  }),
  solve: z.object({ type: z.literal('solve'), id, puzzle, timeLimitMs: z.number().nonnegative(), maxMoves: count }),
  prepare: z.object({
    type: z.literal('prepare'),
    id,
    kind: z.enum(PUZZLE_KINDS),
    puzzleClass: z.string().max(200),
    timeLimitMs: z.number().nonnegative(),
  }),
  cancel: z.object({ type: z.literal('cancel'), id }),
  result: z.object({
    type: z.literal('result'),
    id,
    verdict: z.enum(VERDICTS),
    moves: count,
    timeMs: z.number().nonnegative(),
    index: count.optional(),
    reason: z.string().optional(),
  }),
  bye: z.object({ type: z.literal('bye'), reason: z.string().optional() }),
} as const;

type Json = Record<string, unknown>;
type FastPath = (json: Json) => Json | undefined;

/** A `solve` whose envelope passes the plain check and whose puzzle passes its own kind's wire shape. */
function fastSolve(json: Json): Json | undefined {
  if (!fastSolveEnvelope(json)) return undefined;
  const kind = (json.puzzle as Json).kind;
  if (typeof kind !== 'string' || !Object.hasOwn(puzzles, kind)) return undefined;
  const p = puzzles[kind as keyof typeof puzzles].wireShape.safeParse(json.puzzle);
  return p.success ? { ...json, puzzle: p.data } : undefined;
}

/** The zod schemas by message type, bot side and referee side: what the plain-code checks are held to (tests). */
export const messageSchemas: { readonly bot: Readonly<Record<string, z.ZodType>>; readonly referee: Readonly<Record<string, z.ZodType>> } = {
  bot: botSchemas,
  referee: refereeSchemas,
};

/** Plain-code checks for the messages of every solve (fast-messages.ts); the rest is zod's. */
const botFastPaths: Readonly<Record<string, FastPath>> = { moves: fastMovesMessage };
const refereeFastPaths: Readonly<Record<string, FastPath>> = { result: fastResultMessage, solve: fastSolve };

/** Describes the first zod issue as "path: message", short enough for a verdict reason. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid message';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** How an unexpected `type` value is named in a reason: short, whatever its size. */
function describeType(type: unknown): string {
  if (typeof type === 'string') return JSON.stringify(type.slice(0, 60));
  if (Array.isArray(type)) return 'an array';
  if (type === null) return 'null';
  if (typeof type === 'object') return 'an object';
  return String(type).slice(0, 60);
}

function parseWith<M>(text: string, schemas: Record<string, z.ZodType>, side: string, bounds: MessageBounds, fast: Readonly<Record<string, FastPath>>): ParseResult<M> {
  const outside = checkBounds(text, bounds);
  if (outside !== undefined) return { ok: false, reason: `out of bounds: ${outside}` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `not JSON: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300) };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, reason: 'a message must be a JSON object with a "type" field' };
  }
  const type = (json as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.hasOwn(schemas, type)) {
    return { ok: false, reason: `unknown ${side} message type ${describeType(type)}; expected one of ${Object.keys(schemas).join(', ')}` };
  }
  const quick = Object.hasOwn(fast, type) ? fast[type]!(json as Json) : undefined;
  if (quick) return { ok: true, message: quick as M };
  const parsed = schemas[type]!.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `bad ${type} message: ${describeIssue(parsed.error)}` };
  return { ok: true, message: parsed.data as M };
}

/** Parses one message a bot sent (the referee side). Never throws. */
export function parseBotMessage(text: string): ParseResult<BotMessage> {
  return parseWith<BotMessage>(text, botSchemas, 'bot', BOT_MESSAGE_BOUNDS, botFastPaths);
}

/** Parses one message the referee sent (the SDK side). Never throws. */
export function parseRefereeMessage(text: string): ParseResult<RefereeMessage> {
  return parseWith<RefereeMessage>(text, refereeSchemas, 'referee', REFEREE_MESSAGE_BOUNDS, refereeFastPaths);
}
