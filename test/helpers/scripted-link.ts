/**
 * A BotLink whose bot side is a script, for in-process referee tests: no process, no socket, no real
 * waiting. The script decides how the "bot" answers each `solve` (moves in chunks, after delays on a
 * FakeClock, under stale ids, a hello after the handshake, silence, a dropped connection...), and the link
 * records every message the referee sent so a test can check cancels, results and byes.
 *
 * The link keeps BotLink's contract as the real transports do: events are delivered asynchronously
 * (microtasks, or clock timers for delays) through the transports' own LinkEvents, nothing arrives after
 * `closed`, `send` is a no-op once closed, and a late answer to a request the referee cancelled is dropped.
 */
import type { PuzzleKind, PuzzleState, Result, WireMoves } from '../../src/core/types.ts';
import { reject } from '../../src/core/types.ts';
import type { BotLauncher, BotLink, LinkEvent } from '../../src/protocol/link.ts';
import type { BotMessage, Capability, HelloMessage, RefereeMessage, SolveInfo, SolveMessage } from '../../src/protocol/messages.ts';
import { PROTOCOL_VERSION } from '../../src/protocol/messages.ts';
import { puzzles } from '../../src/puzzles/index.ts';
import { LinkEvents } from '../../src/transport/link-events.ts';
import type { FakeClock } from './fake-clock.ts';

/** The bot's side of a scripted link: what a script may do. */
export interface ScriptedBot {
  /** Every `solve` this link received so far, oldest first (the current one last). */
  readonly solves: readonly SolveMessage[];
  /** Sends a message to the referee after `afterMs` of clock time (0: on the next microtask, as a socket would). */
  send(message: BotMessage, afterMs?: number): void;
  /** Sends something that fails validation (the transport reports it as `malformed`). */
  malformed(reason: string, afterMs?: number): void;
  /** The connection drops, as when the bot's process dies. */
  drop(reason: string, afterMs?: number): void;
}

/** How the bot reacts to one `solve`. */
export type SolveScript = (solve: SolveMessage, bot: ScriptedBot) => void;

/** One script for every solve, or one per solve in order (the last one repeats). */
export type LinkScript = SolveScript | readonly SolveScript[];

/** Options of a scripted link. */
export interface ScriptedLinkOptions {
  readonly clock: FakeClock;
  /** Bot name in the hello. */
  readonly name?: string;
  /** Declared capabilities; default: every puzzle kind, no size limit. */
  readonly capabilities?: readonly Capability[];
}

/** A hello declaring every registered puzzle kind. */
export function helloFor(name: string, capabilities?: readonly Capability[]): HelloMessage {
  const all = (Object.keys(puzzles) as PuzzleKind[]).map((kind) => ({ kind }));
  return { type: 'hello', protocol: PROTOCOL_VERSION, name, version: 'scripted', capabilities: capabilities ?? all };
}

/** A handshaken link to a scripted bot. */
export class ScriptedLink implements BotLink {
  readonly hello: HelloMessage;
  /** Every message the referee sent while the link was open, in order. */
  readonly sent: RefereeMessage[] = [];
  /** Why the referee closed the link, when it did. */
  closeReason: string | undefined;
  private readonly events = new LinkEvents();
  private readonly solves: SolveMessage[] = [];
  private readonly cancelled = new Set<string>();
  private readonly bot: ScriptedBot;

  constructor(
    private readonly script: LinkScript,
    private readonly opts: ScriptedLinkOptions,
  ) {
    this.hello = helloFor(opts.name ?? 'scripted', opts.capabilities);
    this.bot = {
      solves: this.solves,
      send: (message, afterMs = 0) => this.later(afterMs, () => this.deliver(message)),
      malformed: (reason, afterMs = 0) => this.later(afterMs, () => this.events.emit({ type: 'malformed', reason })),
      drop: (reason, afterMs = 0) => this.later(afterMs, () => this.events.close(reason)),
    };
  }

  get closed(): boolean {
    return this.events.closed;
  }

  send(message: RefereeMessage): void {
    if (this.closed) return;
    this.sent.push(message);
    if (message.type === 'cancel') this.cancelled.add(message.id);
    if (message.type !== 'solve') return;
    this.solves.push(message);
    const scripts = typeof this.script === 'function' ? [this.script] : this.script;
    if (scripts.length === 0) return;
    scripts[Math.min(this.solves.length, scripts.length) - 1](message, this.bot);
  }

  onEvent(listener: (event: LinkEvent) => void): () => void {
    return this.events.subscribe(listener);
  }

  async close(reason = 'closed by the referee'): Promise<void> {
    if (this.closed) return;
    this.sent.push({ type: 'bye', reason });
    this.closeReason = reason;
    this.events.close(reason);
  }

  /** The messages the referee sent of one type. */
  sentOf<T extends RefereeMessage['type']>(type: T): Array<Extract<RefereeMessage, { type: T }>> {
    return this.sent.filter((m): m is Extract<RefereeMessage, { type: T }> => m.type === type);
  }

  private deliver(message: BotMessage): void {
    // A late answer to a cancelled request never reaches the referee (BotLink's contract).
    if (message.type !== 'hello' && this.cancelled.has(message.id)) return;
    this.events.emit({ type: 'message', message });
  }

  private later(afterMs: number, fn: () => void): void {
    if (afterMs > 0) this.opts.clock.setTimer(afterMs, fn);
    else queueMicrotask(fn);
  }
}

/** Splits moves into `n` nearly equal non-empty chunks (fewer when there are fewer moves than `n`). */
export function chunk(moves: WireMoves, n: number): WireMoves[] {
  const len = moves.length;
  const parts = Math.max(1, Math.min(n, len));
  const out: WireMoves[] = [];
  for (let i = 0; i < parts; i++) out.push(moves.slice(Math.floor((i * len) / parts), Math.floor(((i + 1) * len) / parts)));
  return out;
}

/** How an answer is sent. */
export interface ReplyOptions {
  /** Number of `moves` messages (default 1). */
  readonly chunks?: number;
  /** Clock time before each chunk (default 0: at once). */
  readonly delayMs?: number;
  /** Sent with the final chunk. */
  readonly info?: SolveInfo;
  /** Answer under this id instead of the request's. */
  readonly id?: string;
}

/** Answers every solve with moves computed from its state (e.g. a known solution). */
export function replyWith(solve: (state: PuzzleState) => WireMoves, o: ReplyOptions = {}): SolveScript {
  return (req, bot) => {
    const parts = chunk(solve(req.puzzle), o.chunks ?? 1);
    parts.forEach((moves, i) => {
      const final = i === parts.length - 1;
      bot.send({ type: 'moves', id: o.id ?? req.id, moves, final, ...(final && o.info ? { info: o.info } : {}) }, (o.delayMs ?? 0) * (i + 1));
    });
  };
}

/** Answers with fixed moves. */
export function reply(moves: WireMoves, o: ReplyOptions = {}): SolveScript {
  return replyWith(() => moves, o);
}

/** Never answers. */
export const silent: SolveScript = () => {};

/** Drops the connection on a solve (after `afterMs`). */
export function dropOnSolve(reason = 'process exited with code 1', afterMs = 0): SolveScript {
  return (_req, bot) => bot.drop(reason, afterMs);
}

/** Sends a second hello instead of an answer. */
export const helloOnSolve: SolveScript = (_req, bot) => bot.send(helloFor('again'));

/** Sends a message that fails validation. */
export function malformedOnSolve(reason = 'not valid JSON'): SolveScript {
  return (_req, bot) => bot.malformed(reason);
}

/** Gives up on the request. */
export function giveUp(reason = 'too hard'): SolveScript {
  return (req, bot) => bot.send({ type: 'give-up', id: req.id, reason });
}

/** Declines the request. */
export function decline(reason = 'not my kind'): SolveScript {
  return (req, bot) => bot.send({ type: 'unsupported', id: req.id, reason });
}

/** How a scripted launcher behaves on one connect. */
export type ConnectPlan = LinkScript | { readonly fail: string; readonly code?: string };

/** Options of a scripted launcher. */
export interface ScriptedLauncherOptions {
  readonly clock: FakeClock;
  readonly capabilities?: readonly Capability[];
  /** Clock time a connect takes (the bot's start-up), default 0. */
  readonly startMs?: number;
}

/**
 * A BotLauncher handing out scripted links: `plan(attempt)` says how the attempt-th connect (0-based) goes:
 * a script for the new link, or `{ fail }` for a bot that could not start. `() => script` for every connect.
 */
export class ScriptedLauncher implements BotLauncher {
  /** Every link handed out, in order. */
  readonly links: ScriptedLink[] = [];
  connects = 0;
  disposed = false;

  constructor(
    readonly name: string,
    private readonly plan: (attempt: number) => ConnectPlan,
    private readonly opts: ScriptedLauncherOptions,
  ) {}

  async connect(): Promise<Result<BotLink>> {
    const step = this.plan(this.connects++);
    if (this.opts.startMs) {
      const { clock } = this.opts;
      await new Promise<void>((resolve) => clock.setTimer(this.opts.startMs!, resolve));
    }
    if (!Array.isArray(step) && typeof step === 'object' && 'fail' in step) {
      return reject(step.code ?? 'start-failed', step.fail);
    }
    const link = new ScriptedLink(step as LinkScript, { clock: this.opts.clock, name: this.name, ...(this.opts.capabilities ? { capabilities: this.opts.capabilities } : {}) });
    this.links.push(link);
    return { ok: true, value: link };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all(this.links.map((l) => l.close('disposed')));
  }
}
