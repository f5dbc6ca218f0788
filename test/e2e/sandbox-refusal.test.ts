/**
 * A machine that cannot confine bots, made so for the real CLI: ARENA_BWRAP names a bwrap that is missing,
 * or one that fails the way bwrap fails in a locked-down container. A registered bot is then refused with
 * the one-line cause and fix, and no match is created; --no-sandbox runs it and the match says unconfined
 * in --json, in arena show (text and --json); built-in bots run with one warning and the same record; a
 * resumed match keeps to what it recorded; bot check says the same.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnArena } from './helpers.ts';

let base: string;
let db: string;
let failing: string;
const MISSING = { ARENA_BWRAP: '/nonexistent/bwrap' };
const arena = async (args: string[], env: Record<string, string>) => spawnArena([...args, '--db', db], env).done;
const BOARD = ['--puzzle', 'sliding', '--rows', '2', '--cols', '2', '--count', '2', '--seed', 'refusal'];

interface Report {
  match: { id: number; unconfined?: true };
  results: Array<{ verdict: string }>;
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'arena-refusal-'));
  db = join(base, 'arena.db');
  failing = join(base, 'bwrap');
  writeFileSync(failing, '#!/bin/sh\necho "bwrap: Creating new namespace failed: Operation not permitted" >&2\nexit 1\n');
  chmodSync(failing, 0o755);
  const folder = join(base, 'solver');
  mkdirSync(folder);
  // A plain stdio bot for 2x2 boards: it never attacks anything; only its registration matters here.
  writeFileSync(
    join(folder, 'bot.mjs'),
    `import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const solve = (t) => { const goal = '1,2,3,0'; const seen = new Map([[t.join(), '']]); let q = [t];
  while (q.length) { const n = []; for (const s of q) { const p = seen.get(s.join()); if (s.join() === goal) return p;
    const b = s.indexOf(0); for (const [m, d] of [['U', -2], ['D', 2], ['L', -1], ['R', 1]]) { const j = b + d;
      if (j < 0 || j > 3 || (Math.abs(d) === 1 && (b >> 1) !== (j >> 1))) continue; const u = [...s]; u[b] = u[j]; u[j] = 0;
      if (!seen.has(u.join())) { seen.set(u.join(), p + m); n.push(u); } } } q = n; } return ''; };
send({ type: 'hello', protocol: 1, name: 'plain', version: '1', capabilities: [{ kind: 'sliding', maxSize: 4 }] });
for await (const line of createInterface({ input: process.stdin })) { if (!line.trim()) continue; const m = JSON.parse(line);
  if (m.type === 'bye') break; if (m.type === 'solve') send({ type: 'moves', id: m.id, final: true, moves: solve(m.puzzle.tiles) }); }
`,
  );
  const added = await arena(['bot', 'add', 'plain', '--cmd', `${process.execPath} bot.mjs`, '--cwd', folder, '--stdio'], {});
  expect(added.code, added.stderr).toBe(0);
  // As root, each start runs as a uid of its own, which reads its snapshot and writes only its scratch and its cache: said at registration.
  if (process.getuid?.() === 0) expect(added.stdout).toMatch(/^note: each start of the bot runs as a uid of its own \(60000-60999\): it reads its snapshot, and writes only \/tmp and \$ARENA_CACHE/m);
}, 60_000);

describe('cli e2e - no sandbox on this machine', () => {
  it('a registered bot is refused with the cause and the fix in one line, and no match is created', async () => {
    const r = await arena(['match', 'plain', 'dijkstra', ...BOARD], MISSING);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe(
      'arena: bot plain is not started: cannot confine bots on this machine: bubblewrap is not installed (ARENA_BWRAP=/nonexistent/bwrap is not a program); fix: apt-get install bubblewrap (dnf/pacman: bubblewrap) (or pass --no-sandbox to run it unconfined, recorded with the match)',
    );
    const container = await arena(['match', 'plain', ...BOARD], { ARENA_BWRAP: failing });
    expect(container.code).not.toBe(0);
    expect(container.stderr.trim().split('\n')).toHaveLength(1);
    expect(container.stderr).toMatch(/bwrap said: bwrap: Creating new namespace failed: Operation not permitted/);
    const list = await arena(['matches', '--json'], {});
    expect(JSON.parse(list.stdout)).toEqual([]);
  }, 60_000);

  it('--no-sandbox runs it, and the match says unconfined in --json, arena show and arena show --json', async () => {
    const r = await arena(['match', 'plain', ...BOARD, '--json', '--no-sandbox'], MISSING);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^warning: --no-sandbox: the bots run unconfined/m);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.match.unconfined).toBe(true);
    expect(report.results.map((x) => x.verdict)).toEqual(['solved', 'solved']);
    const json = await arena(['show', String(report.match.id), '--json'], {});
    expect((JSON.parse(json.stdout) as Report).match.unconfined).toBe(true);
    const text = await arena(['show', String(report.match.id)], {});
    expect(text.stdout.split('\n')[1]).toBe('UNCONFINED: the bots the arena started ran outside the sandbox (--no-sandbox, or a machine that could not confine them)');
  }, 60_000);

  it('built-in bots run unconfined with one warning line, and the match records it', async () => {
    const r = await arena(['match', 'dijkstra', ...BOARD, '--json'], MISSING);
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toEqual([
      'warning: the built-in bots run unconfined: cannot confine bots on this machine: bubblewrap is not installed (ARENA_BWRAP=/nonexistent/bwrap is not a program); fix: apt-get install bubblewrap (dnf/pacman: bubblewrap); the match records it',
    ]);
    expect((JSON.parse(r.stdout) as Report).match.unconfined).toBe(true);
  }, 60_000);

  it('bot check: refused with the cause and the fix; --no-sandbox checks it unconfined and says so', async () => {
    const r = await arena(['bot', 'check', 'plain'], MISSING);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}sandbox: bot plain is not started: cannot confine bots on this machine: bubblewrap is not installed .*; fix: apt-get install bubblewrap/m);
    const loose = await arena(['bot', 'check', 'plain', '--no-sandbox'], MISSING);
    expect(loose.code, loose.stdout).toBe(0);
    expect(loose.stdout).toMatch(/^sandbox: UNCONFINED: warning: --no-sandbox/m);
  }, 60_000);
});
