/**
 * The SDK's WebSocket client. With wire-warm-up.ts (which plays the referee's side of a loopback before
 * the bot dials in) the only place in src/sdk that imports `ws`: a bot program needs a client, and Node 20
 * has no stable built-in WebSocket that can set the Authorization header.
 */
import WebSocket from 'ws';
import { MAX_REFEREE_PAYLOAD, SUBPROTOCOL } from '../protocol/messages.ts';
import type { BotMessage } from '../protocol/messages.ts';
import type { Channel } from './channel.ts';

/** Dials the arena with the bearer token and the v1 subprotocol; resolves once open, rejects with why not. */
export function connectWebSocket(url: string, token: string): Promise<Channel> {
  return new Promise((resolve, fail) => {
    const ws = new WebSocket(url, SUBPROTOCOL, {
      headers: { Authorization: `Bearer ${token}` },
      perMessageDeflate: false,
      // What the referee sends (a solve holds the whole state) can exceed what it accepts from bots.
      maxPayload: MAX_REFEREE_PAYLOAD,
    });
    const closeListeners: Array<(reason: string) => void> = [];
    ws.on('unexpected-response', (_req, res) => {
      fail(new Error(`arena refused the connection: HTTP ${res.statusCode} ${res.statusMessage ?? ''}`.trim()));
      ws.terminate();
    });
    ws.on('error', (err) => fail(err)); // after open, 'close' follows and reports the end
    ws.on('close', (code, reason) => {
      const text = `connection closed (code ${code}${reason.length ? `: ${reason.toString('utf8')}` : ''})`;
      for (const l of closeListeners) l(text);
    });
    ws.once('open', () => {
      resolve({
        send: (message: BotMessage) =>
          new Promise<void>((done) => {
            if (ws.readyState !== WebSocket.OPEN) return done();
            // A failed send means the connection is going away; 'close' reports that, so never reject.
            ws.send(JSON.stringify(message), () => done());
          }),
        onMessage: (listener) => ws.on('message', (data, isBinary) => {
          if (!isBinary) listener(data.toString());
        }),
        onClose: (listener) => {
          closeListeners.push(listener);
        },
        close: () => ws.close(1000),
      });
    });
  });
}
