import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { arena, pythonExecutable, ROOT, tempFolder } from '../helpers/bot-folders.ts';

// `arena bot check` and `bot add` through the real CLI, with real Python bots in the sandbox: one bug is
// one problem, the sandbox is not blamed for the bot's own bug, the rule a bot breaks is named, a folder the
// sandbox refuses is refused at registration, and a misspelt name gets a suggestion.

/** A stdio Python bot in a fresh folder, registered on a fresh database; the database. */
async function register(name: string, lines: string[]): Promise<string> {
  const dir = tempFolder(`check-${name}`);
  writeFileSync(join(dir, 'bot.py'), lines.join('\n'));
  const db = join(tempFolder('db'), 'arena.db');
  const add = await arena(['bot', 'add', name, '--cmd', `${pythonExecutable()} bot.py`, '--cwd', dir, '--stdio'], db);
  expect(add.code, add.stderr).toBe(0);
  return db;
}

/** A bot that says hello, then answers every request after a line of debug text on stdout. */
const CHATTY = [
  'import json, sys',
  'print(json.dumps({"type": "hello", "protocol": 1, "name": "chatty", "version": "1", "capabilities": [{"kind": "sliding", "maxSize": 4}]}), flush=True)',
  'for line in sys.stdin:',
  '    msg = json.loads(line)',
  '    if msg["type"] == "solve":',
  '        print("DEBUG got solve", flush=True)',
  '        print(json.dumps({"type": "moves", "id": msg["id"], "moves": "", "final": True}), flush=True)',
  '    if msg["type"] == "bye":',
  '        break',
];

describe('bot-check e2e - one bug once, and blamed where it lies', () => {
  it('bot-check - a bot that crashes on import is one problem, and the sandbox is not blamed for it', async () => {
    const db = await register('crashy', ['import no_such_module_for_the_check', 'print("never")']);
    const done = await arena(['bot', 'check', 'crashy'], db);
    expect(done.code, done.stderr).toBe(1);
    const out = done.stdout;
    expect(out).toMatch(/^sandbox: confined \(bubblewrap\)/);
    expect(out.match(/^FAIL/gm)).toHaveLength(1);
    expect(out).toMatch(/FAIL {2}handshake: .*no_such_module_for_the_check/s);
    expect(out).toMatch(/^1 problem\(s\) found$/m);
    // Not "ok sandbox" then "FAIL sandbox": the only word on the sandbox is how to tell whether it is why.
    expect(out).not.toMatch(/(ok|FAIL) +sandbox/);
    expect(out).toMatch(/note: it ran confined: .* If `arena bot check crashy --no-sandbox` passes/);

    // Unconfined, the same bug: still one problem, and nothing said about a sandbox it did not run in.
    const free = await arena(['bot', 'check', 'crashy', '--no-sandbox'], db);
    expect(free.code).toBe(1);
    expect(free.stdout).toMatch(/^sandbox: UNCONFINED/);
    expect(free.stdout.match(/^FAIL/gm)).toHaveLength(1);
    expect(free.stdout).not.toMatch(/note:/);
  });

  it('bot-check - debug text on a stdio bot\'s stdout names the rule, once for every request it broke', async () => {
    const db = await register('chatty', CHATTY);
    const done = await arena(['bot', 'check', 'chatty'], db);
    expect(done.code).toBe(1);
    expect(done.stdout).toMatch(/FAIL {2}sliding 2x2 scramble: protocol: not JSON: .*DEBUG got solve.* — stdout is the protocol; log to stderr \(the same on \d+ more: .*cancel\)$/m);
    expect(done.stdout.match(/^FAIL/gm)).toHaveLength(1);
    expect(done.stdout).toMatch(/^1 problem\(s\) found$/m);
  });

  it('bot add - a folder the sandbox refuses (the checkout) is refused at registration, with the way out', async () => {
    const db = join(tempFolder('db'), 'arena.db');
    const add = await arena(['bot', 'add', 'inside', '--cmd', 'python3 main.py', '--cwd', ROOT], db);
    expect(add.code).not.toBe(0);
    expect(add.stderr.trim().split('\n')).toHaveLength(1);
    expect(add.stderr).toMatch(/bot inside would never start in the sandbox: its folder .* is a protected folder .*register it with --cwd <a folder of its own>/);
    expect((await arena(['bot', 'list', '--json'], db)).stdout).not.toMatch(/"inside"/);
  });

  it('bot check - a misspelt bot name gets "did you mean", in one line', async () => {
    const db = join(tempFolder('db'), 'arena.db');
    const done = await arena(['bot', 'check', 'dijkstr'], db);
    expect(done.code).not.toBe(0);
    expect(done.stderr.trim().split('\n')).toHaveLength(1);
    expect(done.stderr).toMatch(/unknown bot "dijkstr"; did you mean "dijkstra"\?/);
  });
});
