/**
 * The relay that lets a WebSocket bot dial ws://127.0.0.1:<port>/ inside a sandbox with no network: it
 * listens on that port in the bot's own network namespace, before the bot starts, and forwards each
 * connection to the referee's unix socket of that bot (ws-channels.ts).
 *
 * The relay is relay.c, compiled once with the machine's C compiler into the project's cache (keyed by
 * the source's hash): a ~17 KiB program that starts in well under a millisecond and holds ~100 KiB. Where
 * no compiler is found, relay-fallback.mjs does the same on the referee's Node (slower to start, ~40 MB
 * of memory, which counts against the bot's limit); the start-up bench row shows both.
 */
import { createHash } from 'node:crypto';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Result } from '../core/types.ts';
import { projectRootOf } from '../runtime/source-tree.ts';
import { ok, reject } from '../core/types.ts';
import { resolveExecutable } from '../transport/process/bot-limits.ts';
import { runCommand } from '../transport/process/run-command.ts';
import type { Bind } from './bwrap-args.ts';
import { INSIDE } from './bwrap-args.ts';

// From the project root, not this file: bundled (dist/), this code runs from a shared chunk elsewhere.
const ROOT = projectRootOf(import.meta.url);
const HERE = join(ROOT, 'src', 'sandbox');
const SOURCE = join(HERE, 'relay.c');
const FALLBACK = join(HERE, 'relay-fallback.mjs');

/** How the relay runs inside a sandbox. */
export interface Relay {
  readonly kind: 'native' | 'node';
  /** What must be shown inside (read-only) for it to run. */
  readonly binds: readonly Bind[];
  /** The command prefix that starts the relay on `port`, then the bot (what follows the prefix). */
  prefix(port: number): string[];
}

/** The folder compiled relays are kept in: the project's cache, else a private temporary folder. */
function cacheFolder(): string {
  const folder = join(ROOT, '.cache', 'sandbox');
  try {
    mkdirSync(folder, { recursive: true });
    accessSync(folder, constants.W_OK);
    return folder;
  } catch {
    return mkdtempSync(join(tmpdir(), 'arena-relay-'));
  }
}

/** Compiles relay.c (or finds it compiled); the reason when no compiler is found or it fails. */
export function compileRelay(compiler?: string): Result<string> {
  const source = readFileSync(SOURCE);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 12);
  const folder = cacheFolder();
  const program = join(folder, `arena-relay-${hash}`);
  if (existsSync(program)) return ok(program);
  const path = process.env.PATH ?? '';
  const cc = compiler ?? ['cc', 'gcc', 'clang'].map((c) => resolveExecutable(c, undefined, path)).find((c) => c !== undefined);
  if (!cc) return reject('no-compiler', 'no C compiler (cc, gcc or clang) on PATH');
  const partial = `${program}.${process.pid}.tmp`;
  const run = runCommand(cc, ['-O2', '-o', partial, SOURCE], { env: { PATH: path }, timeoutMs: 60_000 });
  if (run.status !== 0) return reject('compile', `${cc} could not compile the relay: ${(run.stderr.trim().split('\n')[0] || run.error) ?? `exit ${run.status}`}`);
  chmodSync(partial, 0o755);
  renameSync(partial, program);
  return ok(program);
}

/** The native relay. */
function nativeRelay(program: string): Relay {
  return {
    kind: 'native',
    binds: [{ source: program, dest: INSIDE.relay }],
    prefix: (port) => [INSIDE.relay, String(port), INSIDE.socket, '--'],
  };
}

/**
 * The Node relay: started in the background by a shell that waits for its "listening" line on a fifo in
 * the bot's private /tmp, then becomes the bot, so the port listens before the bot exists here too.
 */
function nodeRelay(node: string): Relay {
  const script = 'f=/tmp/.arena-relay; mkfifo -m 600 "$f" || exit 127; "$1" "$2" "$3" "$4" >"$f" 2>/dev/null </dev/null & read -r _ <"$f"; rm -f "$f"; shift 5; exec "$@"';
  return {
    kind: 'node',
    binds: [{ source: FALLBACK, dest: INSIDE.relayScript }],
    prefix: (port) => ['/bin/sh', '-c', script, 'arena-relay', node, INSIDE.relayScript, String(port), INSIDE.socket, '--'],
  };
}

let cached: Relay | undefined;

/**
 * The relay of this process: native where a C compiler is (compiled once), else the Node one. `prefer`
 * 'node' picks the fallback (tests of it, and the bench row). `node` is the Node binary shown inside.
 */
export function relayFor(node: string, prefer: 'auto' | 'node' = 'auto'): Relay {
  if (prefer === 'node') return nodeRelay(node);
  if (cached) return cached;
  const compiled = compileRelay();
  cached = compiled.ok ? nativeRelay(compiled.value) : nodeRelay(node);
  return cached;
}
