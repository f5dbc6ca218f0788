/**
 * `arena submit` and `arena login` as real processes against a small real HTTP server that speaks the
 * submissions API (a stand-in for `arena serve` while the submission service is being built): the folder is
 * packed (its manifest's `exclude` honoured) and uploaded whole, the status is followed from received to
 * placed or failed, `--json` prints only the final document, the exit codes, where the token comes from,
 * and that a stored token is never sent to another server.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { list } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arenaRuns, ROOT } from './helpers.ts';

const GOOD = `arena_${'g'.repeat(43)}`;
const STATUSES = ['received', 'building', 'checking', 'placing', 'placed'] as const;

interface Seen {
  uploads: Buffer[];
  tokens: string[];
}

/** The API as `arena serve` answers it: submission 7 walks to placed, 8 fails its build, a body "refuse" is 403. */
function fakeArena(seen: Seen): Server {
  const looks = new Map<number, number>();
  const json = (res: import('node:http').ServerResponse, status: number, v: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(v));
  };
  const body = async (req: IncomingMessage) => Buffer.concat(await Readable.from(req).toArray());
  return createServer(async (req, res) => {
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    seen.tokens.push(token);
    if (token !== GOOD) return json(res, 401, { error: 'the token is wrong or revoked' });
    const url = req.url ?? '';
    if (url === '/api/whoami') return json(res, 200, { user: 'alice', admin: false });
    if (url === '/api/submissions' && req.method === 'POST') {
      const b = await body(req);
      seen.uploads.push(b);
      if (b.toString() === 'refuse') return json(res, 403, { error: 'bob/astar is not yours' });
      const failing = b.toString() === 'fail';
      // Each upload starts its submission's walk from the beginning.
      looks.delete(failing ? 8 : 7);
      return json(res, 202, { submission: failing ? 8 : 7, bot: 'alice/astar', status: 'received' });
    }
    const m = /^\/api\/submissions\/(\d+)(\/log)?$/.exec(url);
    if (!m) return json(res, 404, { error: `no page at ${url}` });
    const id = Number(m[1]);
    if (m[2]) {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      return res.end('helper.c:3: error: expected ; before }\n');
    }
    const n = (looks.get(id) ?? 0) + 1;
    looks.set(id, n);
    const at = new Date().toISOString();
    const base = { id, participant: 'alice', bot: 'alice/astar', version: 'ab'.repeat(32), createdAt: at, updatedAt: at };
    if (id === 8) return json(res, 200, { ...base, status: n < 2 ? 'building' : 'failed', ...(n < 2 ? {} : { reason: 'the build exited with status 1' }) });
    return json(res, 200, { ...base, status: STATUSES[Math.min(n, STATUSES.length - 1)], ...(n >= 4 ? { ladderVersion: 3 } : {}) });
  });
}

/** Runs the CLI (or `command`) with `env` (no ARENA_TOKEN unless given) and `input` on stdin. */
function run(args: string[], env: Record<string, string>, input = '', command = [process.execPath, join(ROOT, 'bin/arena.js')]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { ARENA_TOKEN: _, ...rest } = process.env;
  const child = spawn(command[0]!, [...command.slice(1), ...args], { cwd: ROOT, env: { ...rest, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(input);
  return new Promise((res) => child.on('close', (code) => res({ code, stdout, stderr })));
}

describe('arena submit - against a real HTTP server speaking the submissions API', () => {
  const { tempDir } = arenaRuns();
  const seen: Seen = { uploads: [], tokens: [] };
  let server: Server;
  let url: string;
  let other: string;
  let dir: string;
  let bot: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    server = fakeArena(seen);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    // Another server: nothing listens there, which is all a refused send needs.
    other = 'http://127.0.0.1:9';
    dir = tempDir('arena-submit-cli-');
    bot = join(dir, 'astar');
    mkdirSync(bot);
    writeFileSync(join(bot, 'arena-bot.json'), JSON.stringify({ name: 'astar', run: 'python3 bot.py', transport: 'stdio', exclude: ['*.log'] }));
    writeFileSync(join(bot, 'bot.py'), 'print("hi")\n');
    writeFileSync(join(bot, 'debug.log'), 'not for the arena\n');
    env = { XDG_CONFIG_HOME: join(dir, 'config') };
  }, 60_000);

  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('submit - packs the folder without what exclude names, uploads it, follows received → placed, exit 0', async () => {
    const before = seen.uploads.length;
    const r = await run(['submit', bot, '--server', url, '--token', GOOD, '--poll', '100ms'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      'submission 7: alice/astar received',
      'submission 7: building',
      'submission 7: checking',
      'submission 7: placing',
      'submission 7: placed',
      `submission 7: alice/astar v3 placed (version ${'ab'.repeat(6)})`,
    ]);
    expect(r.stderr).toMatch(/^packed .*astar \(astar\): 2 file\(s\), \d+ bytes\n$/);
    const upload = seen.uploads[before]!;
    expect(upload.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const paths: string[] = [];
    await new Promise<void>((res, rej) => Readable.from([upload]).pipe(list({ onReadEntry: (e) => void paths.push(e.path) })).on('end', res).on('error', rej));
    expect(paths.sort()).toEqual(['arena-bot.json', 'bot.py']);
  }, 120_000);

  it('submit --json - only the final {"submission","bot","version","status"} on stdout', async () => {
    const r = await run(['submit', bot, '--server', url, '--json', '--poll', '100ms'], { ...env, ARENA_TOKEN: GOOD });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ submission: 7, bot: 'alice/astar', version: 'ab'.repeat(32), status: 'placed' });
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
  }, 120_000);

  it('submit - a failed build: exit 1 with the reason and the build log; --json says failed with its reason', async () => {
    const archive = join(dir, 'fail.tar.gz');
    writeFileSync(archive, 'fail');
    const r = await run(['submit', '--archive', archive, '--server', url, '--token', GOOD, '--poll', '100ms'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('submission 8: failed: the build exited with status 1');
    expect(r.stdout).toContain('build log:\nhelper.c:3: error: expected ; before }');
    const j = await run(['submit', '--archive', archive, '--server', url, '--token', GOOD, '--json', '--poll', '100ms'], env);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toEqual({ submission: 8, bot: 'alice/astar', version: 'ab'.repeat(32), status: 'failed', reason: 'the build exited with status 1' });
  }, 120_000);

  it('submit - refused (403) and a wrong token (401) exit 1 with one line; usage mistakes exit 2', async () => {
    const archive = join(dir, 'refuse.zip');
    writeFileSync(archive, 'refuse');
    const r = await run(['submit', '--archive', archive, '--server', url, '--token', GOOD], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`arena: ${url} refused the submission: bob/astar is not yours\n`);
    const wrong = await run(['submit', '--archive', archive, '--server', url, '--token', `arena_${'w'.repeat(43)}`], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(`arena: ${url} refused the submission: the token is wrong or revoked\n`);
    expect((await run(['submit', bot, '--archive', archive, '--server', url, '--token', GOOD], env)).code).toBe(2);
    expect((await run(['submit', '--archive', join(dir, 'none.tgz'), '--server', url, '--token', GOOD], env)).code).toBe(2);
    const noToken = await run(['submit', bot, '--server', url], env);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/no token for .*arena login/);
    expect((await run(['submit', bot, '--server', 'ftp://x', '--token', GOOD], env)).code).toBe(2);
    expect((await run(['submit', bot, '--bogus'], env)).code).toBe(2);
    expect((await run(['login'], env)).code).toBe(2);
    expect((await run(['submit', '--help'], env)).code).toBe(0);
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'arena-bot.json'), '{"name":"astar","run":"x","transport":"stdio","biuld":"make"}');
    const unpackable = await run(['submit', bad, '--server', url, '--token', GOOD], env);
    expect(unpackable.code).toBe(1);
    expect(unpackable.stderr).toMatch(/^arena: cannot pack .*biuld/);
  }, 120_000);

  it('submit - on a terminal, the status is one line redrawn in place (a pty made by script(1))', async () => {
    const cmd = [process.execPath, join(ROOT, 'bin/arena.js'), 'submit', bot, '--server', url, '--poll', '100ms'].map((a) => `'${a}'`).join(' ');
    const r = await run([], { ...env, ARENA_TOKEN: GOOD, COLUMNS: '100' }, '', ['script', '-qec', cmd, '/dev/null']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/\rsubmission 7 alice\/astar: building · \d+s/);
    expect(r.stdout).toMatch(/\rsubmission 7 alice\/astar: placed · \d+s/);
    // The plain per-status lines are for pipes and logs only.
    expect(r.stdout).not.toContain('submission 7: building');
    expect(r.stdout).toContain(`submission 7: alice/astar v3 placed (version ${'ab'.repeat(6)})`);
  }, 120_000);

  it('login - at a terminal the token is typed without echo (a pty whose master Python holds)', async () => {
    const cfg = { XDG_CONFIG_HOME: join(dir, 'tty-config') };
    // A new pty echoes what is typed (its default); the token, typed once the prompt shows, may only be seen
    // on the master side if the CLI left echo on. Everything the master reads comes back on stdout.
    const driver = [
      'import os, pty, sys, time',
      'pid, fd = pty.fork()',
      'if pid == 0:',
      '    os.execv(sys.argv[1], sys.argv[1:])',
      'out = b""',
      'def read():',
      '    global out',
      '    try:',
      '        chunk = os.read(fd, 4096)',
      '    except OSError:',
      '        return False',
      '    out += chunk',
      '    return bool(chunk)',
      'while b"token: " not in out and read(): pass',
      'time.sleep(0.3)',
      'os.write(fd, sys.stdin.buffer.read())',
      'while read(): pass',
      'code = os.waitpid(pid, 0)[1]',
      'sys.stdout.write(out.decode("utf-8", "replace"))',
      'sys.exit(os.waitstatus_to_exitcode(code))',
    ].join('\n');
    const r = await run([], cfg, `${GOOD}\r`, ['python3', '-c', driver, process.execPath, join(ROOT, 'bin/arena.js'), 'login', '--server', url]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('token: ');
    expect(r.stdout).toMatch(/logged in to .* as alice/);
    expect(r.stdout).not.toContain(GOOD);
    expect(JSON.parse(readFileSync(join(dir, 'tty-config', 'arena', 'credentials.json'), 'utf8'))).toEqual({ server: url, token: GOOD });
  }, 60_000);

  it('submit --no-wait - stops once received', async () => {
    const looked = seen.tokens.length;
    const r = await run(['submit', bot, '--server', url, '--token', GOOD, '--no-wait', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ submission: 7, bot: 'alice/astar', status: 'received' });
    expect(seen.tokens.length - looked).toBe(1);
  }, 60_000);

  it('login - checks the token, stores {server, token} 0600; submit then needs no token, and never sends it to another server', async () => {
    const wrong = await run(['login', '--server', url], env, `arena_${'w'.repeat(43)}\n`);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/did not accept the token: the token is wrong or revoked/);
    const r = await run(['login', '--server', `${url}/`], env, `${GOOD}\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/logged in to .* as alice/);
    const file = join(dir, 'config', 'arena', 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'config', 'arena')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ server: url, token: GOOD });
    const submitted = await run(['submit', bot, '--json', '--poll', '100ms'], env);
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(JSON.parse(submitted.stdout).status).toBe('placed');
    const elsewhere = await run(['submit', bot, '--server', other], env);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toMatch(/no token for http:\/\/127\.0\.0\.1:9/);
  }, 120_000);
});
