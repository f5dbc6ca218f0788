/**
 * The relay on Node, for machines without a C compiler (relay.c is the usual one; relay.ts explains both):
 * node relay-fallback.mjs PORT SOCKET listens on 127.0.0.1:PORT, says "listening" on stdout (the shell
 * that started it waits for that line before it becomes the bot), and pipes every connection to SOCKET.
 * It ends when its parent, the bot, is gone (the sandbox's pid namespace ends with the bot anyway).
 */
import { connect, createServer } from 'node:net';

const [port, socket] = process.argv.slice(2);
const MAX_CONNECTIONS = 8;
// noDelay: every message is passed on as it comes (relay.c says why).
const server = createServer({ noDelay: true }, (tcp) => {
  const unix = connect(socket);
  const end = () => {
    tcp.destroy();
    unix.destroy();
  };
  tcp.on('error', end);
  unix.on('error', end);
  tcp.pipe(unix);
  unix.pipe(tcp);
});
server.maxConnections = MAX_CONNECTIONS;
server.listen(Number(port), '127.0.0.1', () => {
  process.stdout.write('listening\n');
});
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 1000).unref();
