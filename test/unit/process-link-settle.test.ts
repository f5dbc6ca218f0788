/**
 * processLink's wait for the other side: a bot's last answer that is waiting unread when the wait runs out
 * (the referee was not scheduled for longer than the wait) is delivered before `closed`, never lost.
 */
import { createServer, connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { BotLink, LinkEvent } from '../../src/protocol/link.ts';
import type { BotProcess } from '../../src/transport/process/bot-process.ts';
import { LinkEvents } from '../../src/transport/link-events.ts';
import { processLink } from '../../src/transport/process-link.ts';

/** Blocks the event loop for `ms`: what a referee that was not scheduled sees when it runs again. */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    /* busy */
  }
}

/** A connected pair of real loopback sockets. */
async function socketPair(): Promise<{ bot: Socket; referee: Socket; close(): void }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const accepted = new Promise<Socket>((r) => server.once('connection', r));
  const referee = connect(port, '127.0.0.1');
  await new Promise((r) => referee.once('connect', r));
  const bot = await accepted;
  return { bot, referee, close: () => (bot.destroy(), referee.destroy(), server.close()) };
}

describe('process link - the settle wait', () => {
  it('process link - an answer waiting unread when the settle wait runs out is delivered before closed', async () => {
    const { bot, referee, close } = await socketPair();
    try {
      // The inner link turns what arrives on the referee's socket into a message.
      const inner = new LinkEvents();
      referee.on('data', () => inner.emit({ type: 'message', message: { type: 'give-up', id: 'r', reason: 'last answer' } } as unknown as LinkEvent));
      const innerLink = { closed: false, send: () => undefined, onEvent: (l: (e: LinkEvent) => void) => inner.subscribe(l), close: async () => undefined } as unknown as BotLink;
      let exit: BotProcess['exit'];
      let exited!: (d: string) => void;
      const proc = {
        exited: new Promise<string>((r) => (exited = r)),
        get exit() {
          return exit;
        },
        stderrTail: () => '',
        kill: () => undefined,
      } as unknown as BotProcess;
      const link = processLink(innerLink, proc, { settleMs: 20 });
      const seen: string[] = [];
      link.onEvent((e) => seen.push(e.type));
      // The bot exits; its socket stays open (a child holds it), so the link waits settleMs for it.
      exit = { description: 'exited with code 0', clean: true, verdict: 'crash' } as unknown as BotProcess['exit'];
      exited('exited with code 0');
      await Promise.resolve();
      await Promise.resolve();
      // Its last answer is on the wire; the referee is away past the wait, so it wakes with both due.
      bot.write('answer\n');
      stall(80);
      await new Promise((r) => setTimeout(r, 100));
      expect(seen).toEqual(['message', 'closed']);
    } finally {
      close();
    }
  });
});
