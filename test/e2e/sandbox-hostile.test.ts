/**
 * Hostile bots in the real sandbox (bwrap), started by the real CLI: a stdio bot and a WebSocket bot,
 * registered like any contestant's, attack the machine on every solve (test/fixtures/spies/attacks.py):
 * the results database of the running match (read, overwrite, rewrite with SQL, find by guessing), a
 * rival's private file, a secret in the referee's home folder, writes outside their folder, the other
 * bots' tokens in /proc, the process table, a TCP service on the loopback. Each attack must be denied,
 * the bots must still solve, and the stored results must be exactly what the referee decided.
 */
import { chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, spawnArena } from './helpers.ts';
import { CAN_SANDBOX } from '../helpers/sandbox.ts';

const linux = process.platform === 'linux';
const root = process.getuid?.() === 0;
const SPIES = join(ROOT, 'test/fixtures/spies');
/** The uid bot folders belong to when the test runs as root: a contestant's folder is theirs, not root's. */
const OWNER = 65534;
/**
 * Outside /tmp, which every sandbox replaces with its own: the victims must be hidden because the sandbox
 * does not show them, not because they happen to sit under /tmp.
 */
const SCRATCH = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();

interface Report {
  match: { id: number; unconfined?: true };
  scrambles: Array<{ scramble: number; optimal?: number }>;
  results: Array<{ scramble: number; bot: string; verdict: string; moves: number; note?: string }>;
}

let base: string;
let db: string;
/** The bots' persistent caches (ARENA_BOT_CACHE), where a confined bot keeps what it writes. */
let caches: string;
let home: string;
let tcp: Server;
let tcpPort: number;
let tcpConnections = 0;
const folders: Record<string, string> = {};

/** A bot folder holding the spies' code, its targets, and a private file, owned like a contestant's. */
function botFolder(name: string): string {
  const folder = join(base, name);
  mkdirSync(folder);
  for (const f of readdirSync(SPIES)) copyFileSync(join(SPIES, f), join(folder, f));
  writeFileSync(join(folder, 'private.txt'), `${name}'s secret strategy\n`, { mode: 0o600 });
  return folder;
}

function writeTargets(folder: string, rival: string): void {
  writeFileSync(join(folder, 'targets.json'), JSON.stringify({ db, homeSecret: join(home, 'secret.txt'), rivalSecret: join(rival, 'private.txt'), rivalFolder: rival, tcpPort }));
  if (root) for (const f of ['', ...readdirSync(folder)]) chownSync(join(folder, f), OWNER, OWNER);
}

/** The referee's environment: its own HOME with a secret, and a variable no bot may see. */
const refereeEnv = () => ({ HOME: home, ARENA_TEST_REFEREE_SECRET: 'referee-only-value', ARENA_BOT_CACHE: caches });
const arena = async (args: string[], env: Record<string, string> = {}) => spawnArena([...args, '--db', db], { ...refereeEnv(), ...env }).done;

beforeAll(async () => {
  base = mkdtempSync(join(SCRATCH, 'arena-sandbox-'));
  mkdirSync(join(base, 'db'));
  db = join(base, 'db', 'arena.db');
  caches = join(base, 'caches');
  home = join(base, 'home');
  mkdirSync(home);
  writeFileSync(join(home, 'secret.txt'), 'the referee user\'s secret\n', { mode: 0o644 });
  tcp = createServer((s) => {
    tcpConnections++;
    // The unconfined check's bot connects and hangs up at once: a reset is expected.
    s.on('error', () => undefined);
    s.end('hello from the host\n');
  });
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  tcpPort = (tcp.address() as { port: number }).port;
  for (const name of ['spy-stdio', 'spy-ws', 'honest', 'needy']) folders[name] = botFolder(name);
  writeTargets(folders['spy-stdio'], folders['spy-ws']);
  writeTargets(folders['spy-ws'], folders['spy-stdio']);
  writeTargets(folders.honest, folders['spy-ws']);
  writeTargets(folders.needy, folders['spy-ws']);
});
afterAll(async () => {
  await new Promise((r) => tcp.close(r));
  rmSync(base, { recursive: true, force: true });
});

describe.runIf(linux && CAN_SANDBOX)('sandbox e2e - hostile bots', () => {
  it('a stdio and a WebSocket spy: every attack denied on every solve, every scramble solved, results stored as decided', async () => {
    for (const [name, cmd, extra] of [['spy-stdio', 'python3 spy_stdio.py', ['--stdio']], ['spy-ws', 'python3 spy_ws.py', []]] as const) {
      const added = await arena(['bot', 'add', name, '--cmd', cmd, '--cwd', folders[name], ...extra]);
      expect(added.code, added.stderr).toBe(0);
    }
    const r = await arena(['match', 'spy-stdio', 'spy-ws', 'dijkstra', '--puzzle', 'sliding', '--rows', '2', '--cols', '3', '--count', '3', '--seed', 'spies', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const decided = JSON.parse(r.stdout) as Report;
    expect(decided.match.unconfined).toBeUndefined();

    // Every bot solved every scramble optimally (breadth-first search and Dijkstra both are).
    expect(decided.results).toHaveLength(9);
    for (const x of decided.results) {
      expect(x.verdict, `${x.bot} on #${x.scramble}`).toBe('solved');
      expect(x.moves).toBe(decided.scrambles.find((s) => s.scramble === x.scramble)!.optimal);
    }

    // Each attack was made on each timed solve, and each was denied (the bots report them in their answers'
    // notes: their folders are read-only snapshots).
    for (const name of ['spy-stdio', 'spy-ws']) {
      const lines = decided.results.filter((x) => x.bot === name).map((x) => JSON.parse(x.note ?? '{}') as { attacks: Record<string, string>; seen: { processes: number; env: string[]; uid: number } });
      expect(lines, name).toHaveLength(3);
      for (const { attacks, seen } of lines) {
        expect(Object.keys(attacks)).toHaveLength(13);
        const allowed = Object.entries(attacks).filter(([, outcome]) => !outcome.startsWith('denied'));
        expect(allowed, `${name}: ${JSON.stringify(attacks, null, 1)}`).toEqual([]);
        // Its own sandbox: bwrap's init, the bot, the relay (WebSocket) — not the machine's processes.
        expect(seen.processes, name).toBeLessThanOrEqual(4);
        expect(seen.env.filter((k) => !['PATH', 'HOME', 'PWD', 'NODE_OPTIONS', 'LC_CTYPE'].includes(k) && !k.startsWith('ARENA_')), name).toEqual([]);
        expect(seen.env).not.toContain('ARENA_TEST_REFEREE_SECRET');
        // A uid of its own from the pool, not its folder's owner.
        if (root) expect(seen.uid).toBeGreaterThanOrEqual(60000);
        if (root) expect(seen.uid).toBeLessThan(61000);
      }
    }
    // Nothing reached the host: no file written outside the folders, no TCP connection, the database whole.
    for (const folder of [join(base, 'db'), folders['spy-stdio'], folders['spy-ws'], '/', '/usr']) {
      expect(readdirSync(folder).filter((f) => f.startsWith('pwned')), folder).toEqual([]);
    }
    expect(tcpConnections).toBe(0);
    const check = new Database(db, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((check.prepare('SELECT COUNT(*) AS n FROM results').get() as { n: number }).n).toBe(9);
    check.close();
    // What the store holds is what the referee decided.
    const shown = await arena(['show', String(decided.match.id), '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(decided);
  }, 300_000);

  it('a confined bot runs in a pid namespace of its own; --no-sandbox runs it in the referee\'s, and the match records it', async () => {
    const added = await arena(['bot', 'add', 'honest', '--cmd', 'python3 honest_stdio.py', '--cwd', folders.honest, '--stdio']);
    expect(added.code, added.stderr).toBe(0);
    const mine = readlinkSync('/proc/self/ns/pid');
    // The bot says its pid namespace in its answer's note.
    const nsOf = (out: string) => (JSON.parse(out) as Report).results[0]?.note;

    const confined = await arena(['match', 'honest', '--puzzle', 'sliding', '--rows', '2', '--cols', '3', '--count', '1', '--json']);
    expect(confined.code, confined.stderr).toBe(0);
    expect(nsOf(confined.stdout)).toMatch(/^pid:\[\d+\]$/);
    expect(nsOf(confined.stdout)).not.toBe(mine);

    const loose = await arena(['match', 'honest', '--puzzle', 'sliding', '--rows', '2', '--cols', '3', '--count', '1', '--json', '--no-sandbox']);
    expect(loose.code, loose.stderr).toBe(0);
    expect(nsOf(loose.stdout)).toBe(mine);
    expect(loose.stderr).toMatch(/warning: --no-sandbox: the bots run unconfined/);
    const report = JSON.parse(loose.stdout) as Report;
    expect(report.match.unconfined).toBe(true);
    expect(report.results.map((x) => x.verdict)).toEqual(['solved']);
    const shown = await arena(['show', String(report.match.id)]);
    expect(shown.stdout).toMatch(/^UNCONFINED: the bots the arena started ran outside the sandbox/m);
  }, 180_000);

  it('bot check: a bot that needs the network or a file outside its folder fails confined, with its own error', async () => {
    for (const [mode, error] of [['net', /ConnectionRefusedError|Network is unreachable/], ['file', /FileNotFoundError/]] as const) {
      const name = `needy-${mode}`;
      const added = await arena(['bot', 'add', name, '--cmd', `python3 needy.py ${mode}`, '--cwd', folders.needy, '--stdio']);
      expect(added.code, added.stderr).toBe(0);
      const r = await arena(['bot', 'check', name]);
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).toMatch(/^sandbox: confined \(bubblewrap\)/m);
      expect(r.stdout).toMatch(/^FAIL {2}handshake: .*/m);
      expect(r.stdout).toMatch(error);
      // One problem; the sandbox is not named as its cause, only how to tell (the unconfined check below).
      expect(r.stdout.match(/^FAIL/gm)).toHaveLength(1);
      expect(r.stdout).toMatch(new RegExp(`^note: it ran confined: .* If \`arena bot check ${name} --no-sandbox\` passes`, 'm'));
      if (mode === 'net') {
        // The same bot unconfined reaches the service: the sandbox is what stopped it.
        const loose = await arena(['bot', 'check', name, '--no-sandbox']);
        expect(loose.code, loose.stdout).toBe(0);
        expect(loose.stdout).toMatch(/^sandbox: UNCONFINED/m);
      }
    }
    expect(existsSync(join(home, 'secret.txt'))).toBe(true);
  }, 180_000);

  it('a registered bot whose folder would be the checkout is refused before the match starts, with the way out', async () => {
    // No --cwd: its folder is the one the match is started from, here the checkout (and the database's home).
    const added = await arena(['bot', 'add', 'lazy', '--cmd', 'python3 spy_stdio.py', '--stdio']);
    expect(added.code, added.stderr).toBe(0);
    const before = JSON.parse((await arena(['matches', '--json'])).stdout) as unknown[];
    const r = await arena(['match', 'lazy', '--puzzle', 'sliding', '--rows', '2', '--cols', '3', '--count', '1']);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe(`arena: bot lazy cannot start in the sandbox: its folder ${ROOT} is a protected folder (the project checkout or the database's folder); register it with --cwd <a folder of its own>`);
    expect(JSON.parse((await arena(['matches', '--json'])).stdout)).toEqual(before);
  }, 60_000);
});
