import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkEvent } from '../../src/protocol/link.ts';
import { serveBot } from '../../src/sdk/serve.ts';
import { connectWebSocket } from '../../src/sdk/ws-client.ts';
import { builtinBotCommand } from '../../src/transport/process/builtin-bots.ts';
import { createRemoteLauncher } from '../../src/transport/remote-launcher.ts';
import { openStdioLink } from '../../src/transport/stdio-link.ts';
import { hashToken, newToken } from '../../src/transport/tokens.ts';
import type { ArenaServer } from '../../src/transport/ws-server.ts';
import { startArenaServer } from '../../src/transport/ws-server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const registered = newToken();
const hashes = new Map([[hashToken(registered), 'reference-bfs']]);

let server: ArenaServer;
beforeAll(async () => {
  // Like the real registry: only hashes are kept, the dialled token is hashed and looked up.
  server = await startArenaServer({ authenticate: (t) => hashes.get(hashToken(t)) });
});
afterAll(async () => {
  await server.close();
});

function spawnReference(env: Record<string, string>) {
  const cmd = builtinBotCommand('reference-bfs', ROOT)!;
  const child = spawn(cmd.command, cmd.args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, exited };
}

describe('tokens', () => {
  it('makes 64-hex-char random tokens and hashes them with sha256', () => {
    expect(newToken()).toMatch(/^[0-9a-f]{64}$/);
    expect(newToken()).not.toBe(newToken());
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('createRemoteLauncher', () => {
  it('waits for a remote bot dialling in with its registered token', async () => {
    const launcher = createRemoteLauncher('reference-bfs', server, 30_000);
    const connecting = launcher.connect();
    const bot = spawnReference({ ARENA_URL: server.url, ARENA_TOKEN: registered });
    const r = await connecting;
    expect(r.ok && r.value.hello.name).toBe('reference-bfs');
    // No local process to measure: a remote bot's results carry no CPU time.
    expect(r.ok && r.value.cpuMs).toBeUndefined();
    await launcher.dispose();
    // The SDK leaves cleanly on bye: exit code 0.
    expect(await bot.exited).toBe(0);
  });

  it('times out when the bot never dials in', async () => {
    const r = await createRemoteLauncher('nobody', server, 50).connect();
    expect(!r.ok && r.code).toBe('timeout');
  });
});

describe('runBot', () => {
  it('exits with code 2 and a hint when started without the arena environment', async () => {
    const bot = spawnReference({ ARENA_URL: '', ARENA_TOKEN: '' });
    let err = '';
    bot.child.stderr.on('data', (d) => (err += d));
    expect(await bot.exited).toBe(2);
    expect(err).toMatch(/set ARENA_URL and ARENA_TOKEN/);
  });

  it('speaks newline-delimited JSON in stdio mode and exits 0 when stdin closes', async () => {
    const bot = spawnReference({ ARENA_STDIO: '1' });
    let out = '';
    bot.child.stdout.on('data', (d) => (out += d));
    bot.child.stdin.write(JSON.stringify({ type: 'welcome', protocol: 1, session: 's', limits: { maxPayload: 4194304 } }) + '\n');
    bot.child.stdin.write(JSON.stringify({ type: 'solve', id: 'x', puzzle: { kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 0, 3] }, timeLimitMs: 5000, maxMoves: 10 }) + '\n');
    for (let i = 0; i < 600 && out.split('\n').length < 3; i++) await new Promise((r) => setTimeout(r, 50));
    bot.child.stdin.end();
    expect(await bot.exited).toBe(0);
    const lines = out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'hello', name: 'reference-bfs' });
    expect(lines[1]).toMatchObject({ type: 'moves', id: 'x', moves: 'R', final: true });
  });
});

describe('openStdioLink', () => {
  const opts = { session: 's', maxPayload: 1000, handshakeTimeoutMs: 2000, closeGraceMs: 50 };
  const hello = JSON.stringify({ type: 'hello', protocol: 1, name: 'x', version: '1', capabilities: [] });

  const solve = (id: string) => ({ type: 'solve' as const, id, puzzle: { kind: 'sliding' as const, rows: 2, cols: 2, tiles: [1, 2, 0, 3] }, timeLimitMs: 1000, maxMoves: 9 });

  /** Opens a link over in-memory pipes; `written` collects what the referee sent. */
  async function open(maxPayload = 200) {
    const input = new PassThrough();
    const output = new PassThrough();
    const sent = { text: '' };
    input.on('data', (d) => (sent.text += d));
    const opening = openStdioLink({ input, output }, { ...opts, maxPayload });
    output.write(hello.slice(0, 10));
    output.write(hello.slice(10) + '\n');
    const o = await opening;
    if (!o.ok) throw new Error(o.reason);
    const events: LinkEvent[] = [];
    o.link.onEvent((e) => events.push(e));
    return { link: o.link, output, input, events, sent };
  }

  it('handshakes across split writes and delivers an answer to an open request', async () => {
    const { link, output, events, sent } = await open();
    link.send(solve('a'));
    output.write('{"type":"give-up","id":"a"}\r\n\n');
    await new Promise((r) => setTimeout(r, 10));
    expect(JSON.parse(sent.text.split('\n')[0]!)).toMatchObject({ type: 'welcome', limits: { maxPayload: 200 } });
    expect(events).toEqual([{ type: 'message', message: { type: 'give-up', id: 'a' } }]);
    expect(link.closed).toBe(false);
  });

  const violations: Array<[string, (w: PassThrough) => void, string]> = [
    ['a line over the payload cap', (w) => (w.write('x'.repeat(200_000)), w.write('x'.repeat(200_000) + '\n')), 'message larger than 300000 bytes'],
    ['a line that is not JSON', (w) => w.write('not json\n'), 'not JSON'],
    ['a line that is not UTF-8', (w) => w.write(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 10])), 'line is not valid UTF-8'],
    ['an answer for an id never sent', (w) => w.write('{"type":"give-up","id":"guess"}\n'), 'not open'],
    ['a nesting 100,000 deep', (w) => w.write(`{"type":${'['.repeat(100_000)}${']'.repeat(100_000)}}\n`), 'nesting deeper than 8'],
  ];
  it.each(violations)('ends the link on %s: one malformed, then closed, bye and stdin ended', async (_name, misbehave, reason) => {
    const { link, output, input, events, sent } = await open(300_000);
    misbehave(output);
    await new Promise((r) => setTimeout(r, 10));
    expect(events.map((e) => e.type)).toEqual(['malformed', 'closed']);
    expect(events[0]!.type === 'malformed' && events[0]!.reason).toContain(reason);
    expect(events[1]!.type === 'closed' && events[1]!.reason).toMatch(/^protocol violation: /);
    expect(link.closed).toBe(true);
    expect(JSON.parse(sent.text.trim().split('\n').at(-1)!)).toMatchObject({ type: 'bye' });
    expect(input.writableEnded).toBe(true);
  });

  it('fails the handshake on a non-hello first line', async () => {
    const output = new PassThrough();
    const opening = openStdioLink({ input: new PassThrough(), output }, opts);
    output.write('{"type":"give-up","id":"a"}\n');
    const o = await opening;
    expect(!o.ok && o.reason).toBe('expected hello, got give-up');
  });

  it('sends bye and ends stdin on close()', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    input.on('data', (d) => (written += d));
    const opening = openStdioLink({ input, output }, opts);
    output.write(hello + '\n');
    const o = await opening;
    if (!o.ok) throw new Error(o.reason);
    await o.link.close('done');
    expect(written.trim().split('\n').map((l) => JSON.parse(l).type)).toEqual(['welcome', 'bye']);
    expect(input.writableEnded).toBe(true);
    expect(o.link.closed).toBe(true);
  });
});

describe('SDK over a real WebSocket', () => {
  it('streams a 5-million-move answer in chunks under the payload limit', async () => {
    const token = newToken();
    server.allowToken(token, 'big');
    const waiting = server.waitForBot('big', 5000);
    const channel = await connectWebSocket(server.url, token);
    const serving = serveBot(
      { name: 'big', version: '1', capabilities: [{ kind: 'sliding' }], solve: () => ({ moves: 'UD'.repeat(2_500_000) }) },
      channel,
      () => undefined,
    );
    const r = await waiting;
    if (!r.ok) throw new Error(r.reason);
    const events: LinkEvent[] = [];
    let total = 0;
    const finished = new Promise<void>((done) =>
      r.value.onEvent((e) => {
        events.push(e);
        if (e.type === 'message' && e.message.type === 'moves') {
          total += e.message.moves.length;
          if (e.message.final) done();
        }
      }),
    );
    r.value.send({ type: 'solve', id: 'b', puzzle: { kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 3, 0] }, timeLimitMs: 60_000, maxMoves: 1e7 });
    await finished;
    expect(total).toBe(5_000_000);
    expect(events.filter((e) => e.type === 'malformed')).toEqual([]);
    expect(events.length).toBeGreaterThanOrEqual(5);
    await r.value.close();
    await serving;
  });

  it('is refused with HTTP 401 for a wrong token', async () => {
    await expect(connectWebSocket(server.url, 'wrong')).rejects.toThrow(/HTTP 401/);
  });
});
