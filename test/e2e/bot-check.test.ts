import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { arena, pythonExecutable, ROOT, tempFolder } from '../helpers/bot-folders.ts';
import { spawnArena, waitFor } from './helpers.ts';

// `arena bot check` through the real CLI: a remote bot, a real process started by hand, dials the address
// the check prints; bots that declared the warm-up get `prepare` and must answer `ready`.

/** Registers a remote bot on `db`; its token. */
async function registerRemote(name: string, db: string): Promise<string> {
  const add = await arena(['bot', 'add', name, '--remote'], db);
  expect(add.code, add.stderr).toBe(0);
  return add.stdout.split('\n')[1]!.trim();
}

describe('bot-check e2e - remote bots and the warm-up', () => {
  it('bot-check - prints where a remote bot dials, waits for it, sends it prepare, and passes it', async () => {
    const db = join(tempFolder('check-remote'), 'arena.db');
    const token = await registerRemote('far-dijkstra', db);
    const check = spawnArena(['bot', 'check', 'far-dijkstra', '--listen', '127.0.0.1:0', '--wait', '2m', '--db', db], {});
    let stderr = '';
    check.child.stderr!.on('data', (d) => (stderr += d));
    expect(await waitFor(() => /dial (ws:\/\/127\.0\.0\.1:\d+\/)/.test(stderr), 20_000), stderr).toBe(true);
    const url = /dial (ws:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr)![1]!;
    expect(stderr).toMatch(/waiting up to 2m for remote bot far-dijkstra/);
    expect(stderr).toMatch(/arena bot add far-dijkstra --remote/);

    // The built-in dijkstra bot, started by hand as a remote bot would be on another machine.
    const bot = spawn(process.execPath, ['--import', pathToFileURL(tsxLoaderPath(ROOT)!).href, join(ROOT, 'bots/dijkstra/main.ts')], {
      env: { ...process.env, ARENA_URL: url, ARENA_TOKEN: token },
      stdio: 'ignore',
    });
    const botExit = new Promise<number | null>((res) => bot.on('close', (code) => res(code)));
    const done = await check.done;
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toMatch(/ok {4}handshake: dijkstra .* \(with prepare\)/);
    expect(done.stdout).toMatch(/ok {4}prepare sliding 2x2: ready in \d+ ms/);
    expect(done.stdout).toMatch(/ok {4}prepare sliding 3x3: ready in \d+ ms/);
    // Each class is prepared once, before its first scramble.
    expect(done.stdout.indexOf('prepare sliding 3x3')).toBeLessThan(done.stdout.indexOf('sliding 3x3 scramble'));
    expect(done.stdout.match(/prepare sliding 3x3/g)).toHaveLength(1);
    expect(done.stdout).toMatch(/all checks passed/);
    expect(await botExit).toBe(0); // the check said bye, and the bot left
  });

  it('bot-check - a remote bot that never dials in fails once the wait is over, and says so', async () => {
    const db = join(tempFolder('check-absent'), 'arena.db');
    await registerRemote('absent', db);
    const done = await arena(['bot', 'check', 'absent', '--wait', '2s'], db);
    expect(done.code).toBe(1);
    expect(done.stderr).toMatch(/waiting up to 2s for remote bot absent to dial ws:\/\/127\.0\.0\.1:\d+\//);
    expect(done.stdout).toMatch(/FAIL {2}handshake: .*within 2000 ms/);
  });

  it('bot-check - a bad --listen or --wait, or a port in use, is one line and a non-zero exit', async () => {
    const db = join(tempFolder('check-flags'), 'arena.db');
    await registerRemote('r', db);
    const busy = createServer();
    await new Promise<void>((res) => busy.listen(0, '127.0.0.1', res));
    const port = (busy.address() as { port: number }).port;
    try {
      for (const [flags, message] of [
        [['--listen', 'nowhere'], /--listen must be host:port/],
        [['--wait', 'soon'], /--wait must be a duration/],
        [['--wait', '0s'], /--wait must be from/],
        [['--listen', `127.0.0.1:${port}`], /cannot listen on 127\.0\.0\.1:\d+/],
      ] as const) {
        const done = await arena(['bot', 'check', 'r', ...flags], db);
        expect(done.code, done.stderr).not.toBe(0);
        expect(done.stderr).toMatch(message);
        expect(done.stderr.trim().split('\n')).toHaveLength(1);
      }
    } finally {
      busy.close();
    }
  });

  it('bot-check - a bot that answers prepare with anything but ready fails the prepare line', async () => {
    const dir = tempFolder('check-bad-prepare');
    // Declares the warm-up, then answers it with moves: a protocol violation the check must name.
    writeFileSync(
      join(dir, 'bot.py'),
      [
        'import json, sys',
        'print(json.dumps({"type": "hello", "protocol": 1, "name": "bad-prepare", "version": "1",',
        '                  "capabilities": [{"kind": "sliding", "maxSize": 4, "prepare": True}]}), flush=True)',
        'for line in sys.stdin:',
        '    msg = json.loads(line)',
        '    if msg["type"] in ("prepare", "solve"):',
        '        print(json.dumps({"type": "moves", "id": msg["id"], "moves": "", "final": True}), flush=True)',
        '    if msg["type"] == "bye":',
        '        break',
      ].join('\n'),
    );
    const db = join(tempFolder('db'), 'arena.db'); // never in the bot's folder: the sandbox refuses to show a database
    expect((await arena(['bot', 'add', 'bad-prepare', '--cmd', `${pythonExecutable()} bot.py`, '--cwd', dir, '--stdio'], db)).code).toBe(0);
    const done = await arena(['bot', 'check', 'bad-prepare'], db);
    expect(done.code).toBe(1);
    expect(done.stdout).toMatch(/FAIL {2}prepare sliding 2x2: protocol: moves is not an answer to prepare/);
  });
});
