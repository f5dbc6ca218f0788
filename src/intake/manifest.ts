/**
 * `arena-bot.json`, the manifest at the top of a submitted bot's folder: what the bot is called, how it
 * is built and run, and how it talks to the referee. Parsed with a strict zod schema, so a key the arena
 * does not know is refused by name (a typo such as `biuld` must not silently skip the build).
 */
import { z } from 'zod';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import { checkBotName } from './bot-name.ts';

/** The manifest's file name, at the top of the bot's folder. */
export const MANIFEST_FILE = 'arena-bot.json';

/** A manifest larger than this is refused before it is parsed (it is a few lines of JSON). */
export const MANIFEST_MAX_BYTES = 64 * 1024;

/** Longest `run` or `build` command, in characters. */
const COMMAND_MAX = 4096;
/** At most this many `exclude` patterns, each at most 1024 characters. */
const EXCLUDE_MAX = 256;
/** The most threads a bot may declare: far above any machine's cores, so a typo such as 1e9 is refused. */
export const THREADS_MAX = 1024;

/** A checked manifest. */
export interface Manifest {
  /** The bot's name as written: `astar` (owned by the submitter) or `owner/astar`. */
  readonly name: string;
  /** The owner part of `owner/astar`; absent for a bare name. */
  readonly owner?: string;
  /** The bot part: `astar`. */
  readonly bot: string;
  /** The command that starts the bot, run in its folder. */
  readonly run: string;
  /** The command that builds the bot once, run in its folder before it plays. */
  readonly build?: string;
  readonly transport: 'stdio' | 'websocket';
  /** .gitignore-style patterns of files `arena submit` leaves out when it packs the folder. */
  readonly exclude: readonly string[];
  /**
   * The threads the bot solves with: a match that pins players to cores gives it that many of its player's
   * cores when there are enough (app/launch/cores.ts); absent, one.
   */
  readonly threads?: number;
}

/** A command: one line of text, not blank, no NUL (it is handed to a shell-like splitter). */
const command = z
  .string()
  .max(COMMAND_MAX, `at most ${COMMAND_MAX} characters`)
  .refine((s) => s.trim().length > 0, 'cannot be empty')
  .refine((s) => !/[\0\r\n]/.test(s), 'must be one line');

const schema = z.strictObject({
  name: z.string(),
  run: command,
  build: command.optional(),
  transport: z.enum(['stdio', 'websocket']),
  exclude: z
    .array(
      z
        .string()
        .min(1, 'a pattern cannot be empty')
        .max(1024, 'a pattern is at most 1024 characters')
        .refine((s) => !/[\0\r\n]/.test(s), 'a pattern must be one line'),
    )
    .max(EXCLUDE_MAX, `at most ${EXCLUDE_MAX} patterns`)
    .optional(),
  threads: z.number().refine(Number.isInteger, 'must be a whole number').min(1, 'must be at least 1').max(THREADS_MAX, `must be at most ${THREADS_MAX}`).optional(),
});

/** Parses the text of `arena-bot.json`; every refusal is one line naming the field. */
export function parseManifest(text: string): Result<Manifest> {
  if (Buffer.byteLength(text) > MANIFEST_MAX_BYTES) return reject('manifest', `${MANIFEST_FILE} is larger than ${MANIFEST_MAX_BYTES / 1024} KiB`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return reject('manifest', `${MANIFEST_FILE} is not valid JSON: ${oneLine((e as Error).message)}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return reject('manifest', `${MANIFEST_FILE} must be a JSON object`);
  const parsed = schema.safeParse(json);
  if (!parsed.success) return reject('manifest', `${MANIFEST_FILE}: ${describeIssue(parsed.error.issues[0])}`);
  const m = parsed.data;
  const name = splitName(m.name);
  if (!name.ok) return name;
  return ok({
    name: m.name,
    ...(name.value.owner === undefined ? {} : { owner: name.value.owner }),
    bot: name.value.bot,
    run: m.run,
    ...(m.build === undefined ? {} : { build: m.build }),
    transport: m.transport,
    exclude: m.exclude ?? [],
    ...(m.threads === undefined ? {} : { threads: m.threads }),
  });
}

/** `astar` or `owner/astar`, each part held to the project's bot-name rules. */
export function splitName(name: string): Result<{ readonly owner?: string; readonly bot: string }> {
  const parts = name.split('/');
  if (parts.length > 2) return reject('manifest', `${MANIFEST_FILE}: "name" is "astar" or "owner/astar", not "${oneLine(name).slice(0, 80)}"`);
  for (const part of parts) {
    const checked = checkBotName(part);
    if (!checked.ok) return reject('manifest', `${MANIFEST_FILE}: "name": ${checked.reason}`);
  }
  return parts.length === 2 ? ok({ owner: parts[0], bot: parts[1] }) : ok({ bot: parts[0] });
}

/** One line for zod's first issue, naming the field (and, for unknown keys, the keys). */
function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'invalid';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${oneLine(k).slice(0, 60)}"`).join(', ');
    return `unknown key${issue.keys.length > 1 ? 's' : ''} ${keys} (known: name, run, build, transport, exclude, threads)`;
  }
  const field = issue.path.length > 0 ? `"${issue.path.map(String).join('.')}"` : 'the manifest';
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${field} is required`;
  if (issue.code === 'invalid_value' && issue.path[0] === 'transport') return `"transport" is "stdio" or "websocket"`;
  return `${field} ${oneLine(issue.message)}`;
}

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();
