/**
 * What a TypeScript bot imports. A bot is one `runBot({ name, version, capabilities, solve })` call; the
 * SDK reads ARENA_URL/ARENA_TOKEN (or ARENA_STDIO=1), connects, shakes hands, serves solve requests one
 * at a time, streams the answers in chunks and exits with code 0 when the referee says bye.
 */
import { ENV_STDIO, ENV_TOKEN, ENV_URL } from '../protocol/messages.ts';
import type { Channel } from './channel.ts';
import { serveBot } from './serve.ts';
import { stdioChannel } from './stdio-client.ts';
import type { BotDefinition } from './types.ts';
import { withWireWarmUp } from './wire-warm-up.ts';
import { connectWebSocket } from './ws-client.ts';

export { chunked, PAIR_CHUNK, STRING_CHUNK } from './chunked.ts';
export { ENV_WIRE_WARM_UP } from './wire-warm-up.ts';
export type { BotDefinition, PrepareRequest, SolveAnswer, SolveContext } from './types.ts';

/**
 * The largest square side within `cells`: a capability's `maxSize` counts the side (protocol 2), so a bot
 * whose own limit is a cell count declares this (and still declines an oblong board over its limit itself).
 */
export function sideWithin(cells: number): number {
  return Math.floor(Math.sqrt(cells));
}

/** Bots log to stderr: stdout may be the protocol stream (stdio mode). */
function log(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : text + '\n');
}

/**
 * Runs `def` as a bot until the referee says bye or disconnects, then lets the process exit with code 0.
 * Connection failures are logged to stderr and set a non-zero exit code; nothing is thrown, so a program
 * may call it without awaiting it (the built-in bots do: they are also bundled as CommonJS, which has no
 * top-level await, to start from a V8 code cache; see scripts/bot-bundles.js).
 */
export async function runBot(def: BotDefinition): Promise<void> {
  // The hello goes out at once; the SDK's own warm-up runs in the first untimed `prepare` (wire-warm-up.ts).
  let channel: Channel;
  if (process.env[ENV_STDIO] === '1') channel = stdioChannel();
  else {
    const url = process.env[ENV_URL];
    const token = process.env[ENV_TOKEN];
    if (!url || !token) {
      log(`${def.name}: set ${ENV_URL} and ${ENV_TOKEN} (or ${ENV_STDIO}=1); this program is started by the arena`);
      process.exitCode = 2;
      return;
    }
    try {
      channel = await connectWebSocket(url, token);
    } catch (e) {
      log(`${def.name}: cannot connect to ${url}: ${e instanceof Error ? e.message : String(e)}`);
      process.exitCode = 1;
      return;
    }
  }
  await serveBot(withWireWarmUp(def), channel, log);
  process.exitCode = 0;
  // A solve callback may leave timers or sockets behind; they must not keep a finished bot alive.
  setTimeout(() => process.exit(0), 200).unref();
}
export { specOfClass, throwawayPuzzle, warmUpBySolving, wireWarmUpWithin, type SelfWarmUpOptions } from './warm-up.ts';
