/**
 * The hello/welcome handshake, one implementation for every link kind (WebSocket and stdio): what a bot's
 * first message must be, and what the referee answers.
 */
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import type { BotLink } from '../protocol/link.ts';
import type { HelloMessage, WelcomeMessage } from '../protocol/messages.ts';
import { PROTOCOL_VERSION, PROTOCOL_VERSIONS } from '../protocol/messages.ts';
import { understoodHello } from '../protocol/capability-size.ts';
import { parseBotMessage } from '../protocol/schema.ts';

/**
 * How a handshake ended: the live link, or why the bot was turned away. `protocol` when the bot sent
 * something it must not (the referee records a `protocol` verdict), `handshake` when it sent nothing usable
 * in time or went away (a `crash`).
 */
export type HandshakeOutcome =
  | { readonly ok: true; readonly link: BotLink }
  | { readonly ok: false; readonly code: 'protocol' | 'handshake'; readonly reason: string };

/**
 * Checks a bot's first message: a bounded, validated `hello` of this protocol version. Never throws; the
 * rejection code is `protocol` and the reason says what was wrong.
 */
export function checkHello(text: string): Result<HelloMessage> {
  const parsed = parseBotMessage(text);
  if (!parsed.ok) return reject('protocol', `bad hello: ${parsed.reason}`);
  const m = parsed.message;
  if (m.type !== 'hello') return reject('protocol', `expected hello, got ${m.type}`);
  if (!PROTOCOL_VERSIONS.includes(m.protocol)) {
    return reject('protocol', `unsupported protocol ${m.protocol}; this referee speaks ${PROTOCOL_VERSIONS.join(' and ')}`);
  }
  return ok(understoodHello(m));
}

/** The referee's answer to a valid hello, in the bot's own protocol version (a version-1 bot expects 1). */
export function welcomeMessage(session: string, maxPayload: number, protocol: number = PROTOCOL_VERSION): WelcomeMessage {
  return { type: 'welcome', protocol, session, limits: { maxPayload } };
}
