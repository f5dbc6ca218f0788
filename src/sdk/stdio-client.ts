/**
 * The SDK's stdio transport: one JSON message per line, referee → bot on stdin, bot → referee on stdout.
 * Because stdout carries the protocol, console.log is redirected to stderr so a stray debug print cannot
 * corrupt the stream.
 */
import { createInterface } from 'node:readline';
import type { BotMessage } from '../protocol/messages.ts';
import type { Channel } from './channel.ts';

/** A channel over this process's stdin/stdout. */
export function stdioChannel(): Channel {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const closeListeners: Array<(reason: string) => void> = [];
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('close', () => {
    for (const l of closeListeners) l('stdin closed');
  });
  process.stdout.on('error', () => lines.close()); // EPIPE: the referee is gone
  return {
    send: (message: BotMessage) =>
      new Promise<void>((done) => {
        if (process.stdout.destroyed) return done();
        process.stdout.write(JSON.stringify(message) + '\n', () => done());
      }),
    onMessage: (listener) =>
      lines.on('line', (line) => {
        if (line.trim() !== '') listener(line);
      }),
    onClose: (listener) => {
      closeListeners.push(listener);
    },
    close: () => lines.close(),
  };
}
