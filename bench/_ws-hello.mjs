// The smallest WebSocket bot, for the start-up rows of bench/sandbox.ts: dials, says hello, leaves on bye.
import WebSocket from 'ws';

const ws = new WebSocket(process.env.ARENA_URL, ['puzzle-arena.v1'], { headers: { Authorization: `Bearer ${process.env.ARENA_TOKEN}` } });
ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', protocol: 1, name: 'hello', version: '1', capabilities: [{ kind: 'sliding' }] })));
ws.on('message', (data) => {
  if (JSON.parse(String(data)).type === 'bye') process.exit(0);
});
ws.on('close', () => process.exit(0));
ws.on('error', () => process.exit(1));
