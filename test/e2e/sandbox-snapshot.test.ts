/**
 * Nothing a bot writes decides how it starts, and a bot plays a read-only snapshot of its folder: real
 * bwrap, the real CLI, a stdio bot and a WebSocket bot for each attack (test/fixtures/spies/tamper.py).
 * - A launcher whose shim line names a payload in the bot's folder: the payload never runs outside the
 *   sandbox (at registration, at a start, or after the launcher is rewritten), nothing is bound for it.
 * - A pyvenv.cfg in the bot's folder naming /proc, then a rival's folder: never followed, nothing bound.
 * - Folders that are, or become, symlinks to /, the database's folder or another user's folder: refused at
 *   registration; a registered folder swapped for such a link afterwards is never shown (the snapshot is).
 * In every match the bots try the rewrites from inside (and to add a file): all denied, every scramble
 * solved, and the stored results exactly what the referee decided.
 */
import { chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, spawnArena } from './helpers.ts';
import { CAN_SANDBOX } from '../helpers/sandbox.ts';

const linux = process.platform === 'linux';
const root = process.getuid?.() === 0;
const SPIES = join(ROOT, 'test/fixtures/spies');
/** Outside /tmp, which every sandbox replaces with its own, so a marker there would be hidden by /tmp alone. */
const SCRATCH = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();

interface Report {
  match: { id: number };
  results: Array<{ scramble: number; bot: string; verdict: string; moves: number }>;
}

let base: string;
let db: string;
let rival: string;

const arena = async (args: string[]) => spawnArena([...args, '--db', db], {}).done;

/** A bot folder with the tamper bot, its targets and `files` (path -> text; scripts are executable). */
function botFolder(name: string, files: Record<string, string>): string {
  const folder = join(base, name);
  mkdirSync(folder);
  for (const f of ['tamper.py', 'attacks.py', 'ws_client.py']) copyFileSync(join(SPIES, f), join(folder, f));
  writeFileSync(join(folder, 'targets.json'), JSON.stringify({ db, rival }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), text, { mode: text.startsWith('#!') ? 0o755 : 0o644 });
  }
  // A contestant's folder is theirs, not root's, and everything in it too.
  if (root) giveToNobody(folder);
  return folder;
}

function giveToNobody(path: string): void {
  chownSync(path, 65534, 65534);
  if (statSync(path).isDirectory()) for (const e of readdirSync(path)) giveToNobody(join(path, e));
}

/** Registers `<name>-stdio` and `<name>-ws` running `cmd` in `folder`. */
async function addPair(name: string, cmd: string, folder: string): Promise<void> {
  for (const [bot, extra] of [[`${name}-stdio`, ['--stdio']], [`${name}-ws`, []]] as const) {
    const r = await arena(['bot', 'add', bot, '--cmd', bot.endsWith('-ws') ? `${cmd} --ws` : cmd, '--cwd', folder, ...extra]);
    expect(r.code, r.stderr).toBe(0);
  }
}

/** Plays the pair on two scrambles: every one solved (no trick worked), stored exactly as decided. */
async function playPair(name: string, seed: string): Promise<void> {
  const r = await arena(['match', `${name}-stdio`, `${name}-ws`, '--puzzle', 'sliding', '--rows', '2', '--cols', '3', '--count', '2', '--seed', seed, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const decided = JSON.parse(r.stdout) as Report;
  expect(decided.results).toHaveLength(4);
  for (const x of decided.results) expect(x.verdict, `${x.bot} on #${x.scramble}: ${r.stderr}`).toBe('solved');
  const shown = await arena(['show', String(decided.match.id), '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  expect(JSON.parse(shown.stdout)).toEqual(decided);
}

/** The stored runtime of a registered bot. */
function storedRuntime(bot: string): { program: string; binds: string[]; pathDirs: string[] } {
  const d = new Database(db, { readonly: true });
  try {
    const row = d.prepare('SELECT runtime FROM bots WHERE name = ?').get(bot) as { runtime: string };
    return JSON.parse(row.runtime) as { program: string; binds: string[]; pathDirs: string[] };
  } finally {
    d.close();
  }
}

beforeAll(() => {
  base = mkdtempSync(join(SCRATCH, 'arena-snapshot-'));
  mkdirSync(join(base, 'db'));
  db = join(base, 'db', 'arena.db');
  rival = join(base, 'rival');
  mkdirSync(rival);
  writeFileSync(join(rival, 'private.txt'), 'the rival\'s strategy\n', { mode: 0o600 });
});
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe.runIf(linux && CAN_SANDBOX)('sandbox snapshot e2e - nothing a bot writes decides how it starts', () => {
  it('a shim line naming a payload in the bot\'s folder: never run outside the sandbox, before or after the launcher is rewritten', async () => {
    const marker = join(base, 'shim-ran-as');
    const payload = (mark: string) => `#!/bin/sh\n# a version manager as far as a shim line can tell\nid -u >> ${mark} 2>/dev/null\nshift\nexec "$@"\n`;
    const folder = join(base, 'shim');
    botFolder('shim', {
      launch: `#!/bin/sh\nexec "${folder}/libexec/pyenv" exec python3 tamper.py "$@"\n`,
      'libexec/pyenv': payload(marker),
      'libexec/evil': payload(`${marker}-2`),
    });
    await addPair('shim', './launch', folder);
    // Its own launcher is its program, run inside; nothing outside the sandbox is shown for it.
    expect(storedRuntime('shim-stdio')).toEqual({ program: join(folder, 'launch'), binds: [], pathDirs: [] });
    await playPair('shim', 'shim-1');
    // The launcher rewritten in the live folder (as a submission could ship it): the snapshot still plays.
    writeFileSync(join(folder, 'launch'), `#!/bin/sh\nexec "${folder}/libexec/evil" exec python3 tamper.py "$@"\n`);
    await playPair('shim', 'shim-2');
    expect(existsSync(marker), 'the payload ran outside the sandbox').toBe(false);
    expect(existsSync(`${marker}-2`), 'the rewritten payload ran outside the sandbox').toBe(false);
  }, 240_000);

  it('a pyvenv.cfg in the bot\'s folder naming /proc, then a rival\'s folder: never followed, nothing bound', async () => {
    const folder = botFolder('venv', {
      'env/bin/run': '#!/bin/sh\nexec python3 tamper.py "$@"\n',
      'env/pyvenv.cfg': 'home = /proc\nversion = 3.11\n',
    });
    await addPair('venv', './env/bin/run', folder);
    expect(storedRuntime('venv-ws')).toEqual({ program: join(folder, 'env/bin/run'), binds: [], pathDirs: [] });
    await playPair('venv', 'venv-1');
    writeFileSync(join(folder, 'env/pyvenv.cfg'), `home = ${rival}\n`);
    await playPair('venv', 'venv-2');
    expect(storedRuntime('venv-stdio').binds).toEqual([]);
  }, 240_000);

  it('folders that are links to /, the database\'s folder or another user\'s folder are refused; a registered folder swapped for one plays its snapshot', async () => {
    const links: Array<[string, string]> = [['to-root', '/'], ['to-db', join(base, 'db')]];
    if (root) {
      const other = join(base, 'other-user');
      mkdirSync(other);
      writeFileSync(join(other, 'secret.txt'), 'theirs\n', { mode: 0o600 });
      chownSync(other, 1234, 1234);
      links.push(['to-other', other]);
    }
    for (const [name, target] of links) {
      symlinkSync(target, join(base, name));
      const r = await arena(['bot', 'add', name, '--cmd', 'python3 tamper.py', '--cwd', join(base, name), '--stdio']);
      expect(r.code, `${name}: ${r.stdout}`).not.toBe(0);
      expect(r.stderr.trim().split('\n'), name).toHaveLength(1);
      expect(r.stderr, name).toMatch(/its folder .*\(really .*\).* (is \/ or a home folder|is a protected folder|holds|is a link to a folder of another user)/);
    }

    const folder = botFolder('swap', { launch: '#!/bin/sh\nexec python3 tamper.py "$@"\n' });
    await addPair('swap', './launch', folder);
    await playPair('swap', 'swap-1');
    // The folder becomes a link to the database's folder: the bot still sees only its snapshot there.
    renameSync(folder, `${folder}.orig`);
    symlinkSync(join(base, 'db'), folder);
    await playPair('swap', 'swap-2');
    const again = await arena(['bot', 'add', 'swap-again', '--cmd', 'python3 tamper.py', '--cwd', folder, '--stdio']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/is a protected folder|holds/);
  }, 240_000);
});
