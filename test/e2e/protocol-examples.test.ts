import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBotMessage, parseRefereeMessage } from '../../src/protocol/schema.ts';
import { parseState } from '../../src/puzzles/index.ts';
import { blocksUnder } from '../helpers/markdown.ts';
import { arena, installSdkInto, pythonExecutable, resultsOf, ROOT, tempFolder } from '../helpers/bot-folders.ts';

// Every example of PROTOCOL.md, taken from the file exactly as printed: each bot is registered, passes
// `arena bot check` and plays a match through the real CLI. PyPI is out of reach here, so the examples that
// dial in over WebSocket with the `websockets` package get test/fixtures/python/websockets, a stand-in
// written on the standard library with websockets 14's signatures, copied into the bot's folder.

const PROTOCOL = readFileSync(join(ROOT, 'PROTOCOL.md'), 'utf8');

/** The fenced code blocks under each `### ` heading of one `## ` section. */
function blocksOf(section: string): Map<string, Array<{ lang: string; code: string }>> {
  const start = PROTOCOL.indexOf(`\n## ${section}\n`);
  expect(start, `PROTOCOL.md has a section "${section}"`).toBeGreaterThan(0);
  const end = PROTOCOL.indexOf('\n## ', start + 1);
  const text = PROTOCOL.slice(start, end < 0 ? undefined : end);
  const out = new Map<string, Array<{ lang: string; code: string }>>();
  for (const part of text.split('\n### ').slice(1)) {
    const heading = part.slice(0, part.indexOf('\n'));
    const blocks = [...part.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
    out.set(heading, blocks);
  }
  return out;
}

const examples = blocksOf('Examples');

/** The one block of `lang` under the heading that starts with `heading`. */
function example(heading: string, lang: string): string {
  const found = [...examples].filter(([h]) => h.startsWith(heading));
  expect(found, `one example headed "${heading}"`).toHaveLength(1);
  const blocks = found[0]![1].filter((b) => b.lang === lang);
  expect(blocks, `one ${lang} block under "${heading}"`).toHaveLength(1);
  return blocks[0]!.code;
}

/** Registers the bot, checks it, plays a match; every result must be solved at the optimum. */
async function registerCheckPlay(dir: string, name: string, cmd: string, stdio: boolean, match: string[]): Promise<void> {
  const db = join(tempFolder('db'), 'arena.db'); // never in the bot's folder: the sandbox refuses to show a database
  const add = await arena(['bot', 'add', name, '--cmd', cmd, '--cwd', dir, ...(stdio ? ['--stdio'] : [])], db);
  expect(add.code, add.stderr).toBe(0);
  const check = await arena(['bot', 'check', name], db);
  expect(check.code, check.stdout + check.stderr).toBe(0);
  expect(check.stdout).toMatch(/all checks passed/);
  const played = await arena(['match', name, ...match, '--count', '2', '--seed', '11', '--json'], db);
  expect(played.code, played.stderr).toBe(0);
  const results = resultsOf(played.stdout);
  expect(results.length).toBeGreaterThanOrEqual(2);
  for (const r of results) {
    expect(r.verdict, `${r.bot}: ${r.error}`).toBe('solved');
    expect(r.moves).toBe(r.optimal);
  }
}

/** A folder holding `code` as bot.py, with the websockets stand-in when it dials in over WebSocket. */
function pythonBot(prefix: string, code: string, o: { sdk?: boolean; websockets?: boolean }): string {
  const dir = tempFolder(prefix);
  writeFileSync(join(dir, 'bot.py'), code);
  if (o.sdk) installSdkInto(dir);
  if (o.websockets) cpSync(join(ROOT, 'test/fixtures/python/websockets'), join(dir, 'websockets'), { recursive: true });
  return dir;
}

describe('protocol-examples e2e - PROTOCOL.md examples run as printed', () => {
  it('protocol-examples - the Python SDK example passes bot check and plays over stdio and over WebSocket', async () => {
    const code = example('Python, with the SDK', 'python');
    const dir = pythonBot('proto-sdk', code, { sdk: true, websockets: true });
    const cmd = `${pythonExecutable()} bot.py`;
    const match = ['reference-bfs', '--puzzle', 'sliding', '--rows', '2', '--cols', '3'];
    await registerCheckPlay(dir, 'py-bfs', cmd, true, match);
    await registerCheckPlay(dir, 'py-bfs-ws', cmd, false, match);
  });

  it('protocol-examples - the Python stdio example passes bot check and ties swaps-greedy', async () => {
    const dir = pythonBot('proto-stdio', example('Python, stdio', 'python'), {});
    await registerCheckPlay(dir, 'py-swaps', `${pythonExecutable()} bot.py`, true, ['swaps-greedy', '--puzzle', 'swaps', '--size', '10']);
  });

  it('protocol-examples - the Python websockets example passes bot check and ties swaps-greedy', async () => {
    const dir = pythonBot('proto-ws', example('Python, WebSocket', 'python'), { websockets: true });
    await registerCheckPlay(dir, 'py-swaps-ws', `${pythonExecutable()} bot.py`, false, ['swaps-greedy', '--puzzle', 'swaps', '--size', '10']);
  });

  it('protocol-examples - the TypeScript SDK example, bundled in a folder of its own by the lines of docs/writing-bots.md, passes bot check and ties swaps-greedy', async () => {
    const dir = tempFolder('proto-ts');
    writeFileSync(join(dir, 'main.ts'), example('TypeScript, with the SDK', 'ts'));
    // The bundling lines of docs/writing-bots.md (after its `mkdir`, before `arena bot add`), run in the
    // bot's folder with $ARENA the checkout: the sandbox shows the bot its own folder, not the SDK's sources.
    const lines = blocksUnder(readFileSync(join(ROOT, 'docs/writing-bots.md'), 'utf8'), 'TypeScript').find((b) => b.lang === 'sh')!.code;
    const bundle = lines.replace(/\\\n\s*/g, '').split('\n').filter((l) => !/^(mkdir|arena) /.test(l) && l.trim() !== '');
    expect(bundle.join('\n')).toMatch(/esbuild"? main\.ts .*--outfile=bot\.mjs/);
    execFileSync('bash', ['-c', `set -e\n${bundle.join('\n')}`], { cwd: dir, env: { ...process.env, ARENA: ROOT } });
    await registerCheckPlay(dir, 'my-bot', `${process.execPath} bot.mjs`, false, ['swaps-greedy', '--puzzle', 'swaps', '--size', '10']);
  });

  it('protocol-examples - the chunking function sends any answer as valid chunks that join back to it', () => {
    const harness = [
      example('Long answers', 'python'),
      'import json, sys',
      'for moves in ["", "UD" * 700_000, "R" * (1 << 20), [[1, 2]] * 250_001, []]:',
      '    send_moves(lambda m: print(json.dumps(m)), "k3F", moves, {"optimal": True})',
      '    print("--")',
    ].join('\n');
    const out = execFileSync(pythonExecutable(), ['-c', harness], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const answers: string[][] = [[]];
    for (const line of out.split('\n').filter((l) => l !== '')) {
      if (line === '--') answers.push([]);
      else answers[answers.length - 1]!.push(line);
    }
    answers.pop();
    const expected: Array<{ length: number; chunks: number }> = [
      { length: 0, chunks: 1 },
      { length: 1_400_000, chunks: 2 },
      { length: 1 << 20, chunks: 1 },
      { length: 250_001, chunks: 3 },
      { length: 0, chunks: 1 },
    ];
    expect(answers).toHaveLength(expected.length);
    answers.forEach((lines, i) => {
      const msgs = lines.map((line) => {
        const parsed = parseBotMessage(line);
        expect(parsed.ok, parsed.ok ? '' : parsed.reason).toBe(true);
        return JSON.parse(line) as { moves: string | number[][]; final: boolean; info?: unknown };
      });
      expect(msgs).toHaveLength(expected[i]!.chunks);
      expect(msgs.map((m) => m.final)).toEqual(msgs.map((_, k) => k === msgs.length - 1));
      expect(msgs.map((m) => m.info !== undefined)).toEqual(msgs.map((_, k) => k === msgs.length - 1));
      expect(msgs.reduce((n, m) => n + m.moves.length, 0)).toBe(expected[i]!.length);
    });
  });

  it('protocol-examples - every JSON example of a message or a puzzle is valid', () => {
    let seen = 0;
    for (const section of ['Messages', 'Puzzles and move notation']) {
      for (const blocks of blocksOf(section).values()) {
        for (const b of blocks.filter((x) => x.lang === 'json')) {
          for (const line of b.code.split('\n').filter((l) => l.trim() !== '')) {
            const value = JSON.parse(line) as { type?: string };
            const ok = value.type !== undefined ? parseBotMessage(line).ok || parseRefereeMessage(line).ok : parseState(value).ok;
            expect(ok, line).toBe(true);
            seen++;
          }
        }
      }
    }
    expect(seen).toBeGreaterThanOrEqual(14);
  });
});
