import type { CappedText } from '../core/capped-text.ts';
import type { Result } from '../core/types.ts';
import type { Verdict } from '../core/verdict.ts';
import type { BotMessage, HelloMessage, RefereeMessage } from './messages.ts';

/** Something that happened on a bot's connection. */
export type LinkEvent =
  | { readonly type: 'message'; readonly message: BotMessage }
  /** A message that failed runtime validation (bad JSON, unknown type, wrong field types, too big). */
  | { readonly type: 'malformed'; readonly reason: string }
  /**
   * The connection or process ended; `reason` says how (exit code, signal, socket close). `verdict` is what
   * a request in flight is charged when the ending itself says more than `crash` (the bot ran out of memory).
   */
  | { readonly type: 'closed'; readonly reason: string; readonly verdict?: Extract<Verdict, 'memory' | 'timeout'> };

/**
 * A live, handshaken connection to one bot (WebSocket or stdio). The referee is handed links and never
 * imports `ws` or `child_process` itself. Implementations live in src/transport.
 */
export interface BotLink {
  /** The bot's validated `hello`. */
  readonly hello: HelloMessage;
  /** True once the connection is gone. */
  readonly closed: boolean;
  /** Sends a message; a no-op once closed. */
  send(message: RefereeMessage): void;
  /**
   * Puts what was sent in this turn of the event loop on the wire now, instead of at the turn's end (a
   * WebSocket link gathers a turn's messages into one write). Absent where every send is written at once.
   */
  flush?(): void;
  /**
   * Subscribes to events; returns the unsubscribe function. Events reach listeners in later turns or
   * microtasks, never from inside `send` or `onEvent` (solveOne sends a solve before it subscribes).
   */
  onEvent(listener: (event: LinkEvent) => void): () => void;
  /**
   * CPU milliseconds the bot's processes have used so far (all of them, children included), read now.
   * Only a difference of two reads means anything. Absent for a bot with no local process (a remote bot);
   * returns undefined where it cannot be measured (no /proc) and once the bot has gone.
   */
  cpuMs?(): number | undefined;
  /**
   * What the bot wrote to stderr since the last take, capped (core/capped-text.ts); undefined when nothing.
   * Once the link is closed it first waits until stderr has been read to its end (a few seconds at most).
   * Absent for a bot with no local process (a remote bot).
   */
  takeStderr?(): Promise<CappedText | undefined>;
  /** Says `bye`, closes the connection and, for a spawned bot, kills its process group. Idempotent. */
  close(reason?: string): Promise<void>;
}

/**
 * How the referee obtains a link to one bot, and a fresh one after a crash or a timeout kill.
 * For a command bot, connect() spawns the process and waits for its hello; for a remote bot, it waits for
 * the bot to dial in with its token.
 */
export interface BotLauncher {
  /** The bot's name as the user gave it (registry or built-in name). */
  readonly name: string;
  /** Starts (or restarts) the bot and completes the handshake; a rejection says why it could not. */
  connect(): Promise<Result<BotLink>>;
  /** Kills whatever is still running. Idempotent. */
  dispose(): Promise<void>;
  /**
   * What the starts that failed since the last take (no link came of them) wrote to stderr, capped; a
   * link's own stderr is BotLink.takeStderr's. Absent for a bot with no local process (a remote bot).
   */
  takeStderr?(): CappedText | undefined;
  /**
   * The bot is one connection (a remote bot: one live connection per token): concurrent workers share one
   * launcher and its link, one request at a time, instead of each starting its own.
   */
  readonly single?: boolean;
  /**
   * Present when a bot this launcher started may be kept for a later match (its hello said `reuse`):
   * `launch` names everything that decides how the bot is started (its version, command, limits, cores,
   * confinement, environment), so a launcher with the same `launch` would start an identical bot; `cpuMs`
   * is the most CPU time its processes may have used and still be kept, so that its CPU-time backstop
   * (a per-process kernel limit counted from the start) leaves a later game all it would have fresh.
   */
  readonly reuse?: { readonly launch: string; readonly cpuMs: number };
}

/** The referee's clock, handed in so tests can control it. */
export interface Clock {
  /** Monotonic milliseconds (fractional allowed). */
  now(): number;
  /** Calls `fn` after `ms`; returns a function that cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}
