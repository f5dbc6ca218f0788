import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { arena, resultsOf, ROOT } from '../helpers/bot-folders.ts';
import { blocksUnder, type CodeBlock } from '../helpers/markdown.ts';

// Bots kept outside the checkout, set up by running exactly the shell lines the docs print, in one bash
// session as a person would: docs/install.md's lines that put `arena` on the PATH (into a temp HOME), then
// a bot's lines in a temp folder, with the bot's source taken from the same page. The database is a temp
// file named by ARENA_DB, the one thing the docs' lines leave to the environment. After the docs' own
// `arena match`, every result of the bot must be solved at the optimum.

const run = promisify(execFile);
const made: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The one block of `lang` under `heading` in `file`. */
function block(file: string, heading: string, lang: string): string {
  const blocks: CodeBlock[] = blocksUnder(read(file), heading).filter((b) => b.lang === lang);
  expect(blocks, `one ${lang} block under "${heading}" in ${file}`).toHaveLength(1);
  return blocks[0]!.code;
}

/**
 * Runs, in one bash session started in the checkout: the PATH lines of docs/install.md, then `lines` from
 * a fresh temp folder, with the bot's source (if it has one) saved in the bot's folder right after the
 * lines' first line (`mkdir <folder> && cd <folder>`, where the docs say to save it). Returns the output.
 */
async function session(lines: string, save?: { file: string; source: string }): Promise<{ stdout: string; db: string }> {
  const [first, ...rest] = lines.replace(/\\\n\s*/g, '').split('\n');
  expect(first, 'the first line makes the bot a folder and enters it').toMatch(/^mkdir (\S+) && cd \1$/);
  const home = temp('arena-home-');
  const outside = temp('arena-outside-');
  const db = join(temp('arena-db-'), 'arena.db');
  const saved = join(home, 'source');
  if (save) writeFileSync(saved, save.source);
  const script = [
    'set -euo pipefail',
    block('docs/install.md', 'A fast `arena` on your PATH', 'sh'),
    `cd '${outside}'`,
    first,
    ...(save ? [`cp '${saved}' '${save.file}'`] : []),
    ...rest,
  ].join('\n');
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, ARENA_DB: db, PIP_DISABLE_PIP_VERSION_CHECK: '1' };
  delete env.ARENA; // the docs' lines set it
  const r = await run('bash', ['-c', script], { cwd: ROOT, env, maxBuffer: 1 << 24 }).catch((e: { stdout: string; stderr: string; message: string }) => {
    throw new Error(`${e.message}\n${e.stdout}\n${e.stderr}`);
  });
  return { stdout: r.stdout, db };
}

/** The results of the match the docs played (match 1 of the temp database), all solved at the optimum. */
async function expectSolvedOptimally(db: string, bot: string, count: number): Promise<void> {
  const shown = await arena(['show', '1', '--json'], db);
  expect(shown.code, shown.stderr).toBe(0);
  const mine = resultsOf(shown.stdout).filter((r) => r.bot === bot);
  expect(mine).toHaveLength(count);
  for (const r of mine) {
    expect(r.verdict, r.error).toBe('solved');
    expect(r.moves).toBe(r.optimal);
  }
}

describe('bots-outside e2e - bots in their own folders, set up exactly as the docs print', () => {
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it("bots-outside - the README's first Python bot, installed, registered, checked and played by the README's lines", async () => {
    const readme = read('README.md');
    const heading = 'A first bot in five minutes';
    const code = block('README.md', heading, 'python');
    const { stdout, db } = await session(block('README.md', heading, 'sh'), { file: 'bot.py', source: code });
    expect(readme).toContain(code); // the test ran what is printed
    expect(stdout).toMatch(/all checks passed/);
    await expectSolvedOptimally(db, 'my-bot', 10);
  });

  it('bots-outside - the TypeScript bot of docs/writing-bots.md, bundled against the checkout\'s SDK by its lines, plays a match and type-checks', async () => {
    const [play, typeCheck] = blocksUnder(read('docs/writing-bots.md'), 'TypeScript').filter((b) => b.lang === 'sh');
    expect(typeCheck?.code, 'the type-check lines after the build lines').toMatch(/tsc" -p \.\n$/);
    const { stdout, db } = await session(`${play!.code}${typeCheck!.code}`, {
      file: 'main.ts',
      source: block('docs/writing-bots.md', 'TypeScript', 'ts'),
    });
    expect(stdout).toMatch(/all checks passed/);
    await expectSolvedOptimally(db, 'my-ts-bot', 10);
  });

  it('bots-outside - the C example, compiled in a folder of its own by the lines of docs/writing-bots.md, plays a match', async () => {
    const { stdout, db } = await session(block('docs/writing-bots.md', 'C', 'sh'));
    expect(stdout).toMatch(/all checks passed/);
    await expectSolvedOptimally(db, 'c-swaps', 10);
  });
});
