/**
 * Sandboxed builds of submitted bots (issue 32, Build 5), with real bwrap, real processes and real files:
 * a C bot compiled by gcc and a Python bot with no build come back built; hostile builds (a loop without
 * end, fork bombs, a disk fill, a download, 10 MiB of output, a symlink out of the folder, a process left
 * running, too much memory, a build looking around the machine) each fail with their reason or are held,
 * leave no process and no folder behind, and a normal build right after still succeeds.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild, type BuildRequest, type BuildResult } from '../../src/sandbox/build/run-build.ts';
import { findToolchains, installedToolchains } from '../../src/sandbox/build/toolchains.ts';
import { runFixtureAsNobody } from '../helpers/as-user.ts';
import { CAN_SANDBOX } from '../helpers/sandbox.ts';

const MiB = 2 ** 20;
let base: string;
let serial = 0;

/** A bot folder holding `files`, readable by the build's uid as an intake folder is. */
function botFolder(files: Record<string, string>): string {
  const dir = join(base, `src-${++serial}`);
  mkdirSync(dir, { mode: 0o755 });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text, { mode: 0o644 });
  return dir;
}

/** Builds `files` with `command`; dest is a new folder name. */
async function build(files: Record<string, string>, command: string | undefined, extra: Partial<BuildRequest> = {}): Promise<{ result: BuildResult; dest: string; source: string }> {
  const source = botFolder(files);
  const dest = join(base, `out-${serial}`);
  const result = await runBuild({ source, dest, ...(command !== undefined ? { command } : {}), ...extra });
  return { result, dest, source };
}

function expectFailure(r: BuildResult, code: string): Extract<BuildResult, { ok: false }> {
  if (r.ok) throw new Error(`expected ${code}, the build succeeded; log: ${r.value.log.slice(0, 500)}`);
  expect(r.code, `${r.reason}\n${r.log.slice(0, 2000)}`).toBe(code);
  return r;
}

/** A normal build after a hostile one: the machine still builds. */
async function expectNormalBuild(): Promise<void> {
  const { result, dest } = await build({ 'a.txt': 'a' }, 'cp a.txt b.txt && echo done');
  if (!result.ok) throw new Error(`a normal build failed: ${result.reason}\n${result.log}`);
  expect(result.value.log).toBe('done\n');
  expect(readFileSync(join(dest, 'b.txt'), 'utf8')).toBe('a');
}

/** Processes whose command line holds `token` (the build's own, or their forks). */
function processesWith(token: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'latin1').includes(token)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** This test process's build pids groups still present (none where there is no pids hierarchy here). */
function ownPidsGroups(): string[] {
  const dir = '/sys/fs/cgroup/pids/puzzle-arena-builds';
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith(`${process.pid}-`)) : [];
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'arena-builds-'));
  chmodSync(base, 0o755);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe.skipIf(!CAN_SANDBOX)('runBuild', () => {
  it('runBuild - a C bot whose build compiles it with gcc comes back with its binary', async () => {
    const { result, dest, source } = await build({ 'helper.c': '#include <stdio.h>\nint main(void) { puts("built by gcc"); return 0; }\n' }, 'gcc -O2 -o helper helper.c && echo compiled');
    if (!result.ok) throw new Error(`${result.reason}\n${result.log}`);
    expect(result.value.folder).toBe(dest);
    expect(result.value.log).toBe('compiled\n');
    expect(result.value.seconds).toBeGreaterThan(0);
    expect(statSync(join(dest, 'helper')).mode & 0o111).not.toBe(0);
    expect(execFileSync(join(dest, 'helper'), { encoding: 'utf8' })).toBe('built by gcc\n');
    // The source is only read: the binary is in the copy, not in the submitted folder.
    expect(readdirSync(source)).toEqual(['helper.c']);
  });

  it('runBuild - a Python bot with no build comes back as it was', async () => {
    const files = { 'bot.py': 'print("hello")\n', 'arena-bot.json': '{"name":"py","run":"python3 bot.py"}\n' };
    const { result, dest } = await build(files, undefined);
    if (!result.ok) throw new Error(`${result.reason}\n${result.log}`);
    expect(result.value.log).toBe('');
    expect(readdirSync(dest).sort()).toEqual(['arena-bot.json', 'bot.py']);
    expect(readFileSync(join(dest, 'bot.py'), 'utf8')).toBe(files['bot.py']);
  });

  it('runBuild - the build sees no host file, runs as a pool uid, cannot make a user namespace nor write the submitted folder', async () => {
    const probe = [
      'test ! -e /etc/passwd',
      `test ! -e ${base}`,
      'test ! -e /root',
      'test "$(id -u)" -ge 60000',
      '! touch /run/arena/source/planted 2>/dev/null',
      '! unshare -Ur true 2>/dev/null',
      'echo confined',
    ].join(' && ');
    const { result, source } = await build({ 'a.txt': 'a' }, probe);
    if (!result.ok) throw new Error(`${result.reason}\n${result.log}`);
    expect(result.value.log).toBe('confined\n');
    expect(readdirSync(source)).toEqual(['a.txt']);
  });

  it('runBuild - a build that loops forever fails with the time limit, and the next build succeeds', async () => {
    const token = `loop${process.pid}x${serial}`;
    const { result, dest } = await build({}, `sh -c 'while :; do :; done' ${token}`, { limits: { seconds: 3 } });
    const r = expectFailure(result, 'build-timeout');
    expect(r.reason).toBe('the build ran out of time after 3 s');
    expect(r.seconds).toBeGreaterThanOrEqual(3);
    expect(existsSync(dest)).toBe(false);
    expect(processesWith(token)).toEqual([]);
    await expectNormalBuild();
  });

  it('runBuild - a shell fork bomb fails at the process limit, leaves no process, and the next build succeeds', async () => {
    const token = `bomb${process.pid}x${serial}`;
    const { result, dest } = await build({}, `sh -c 'bomb() { bomb | bomb & }; bomb; sleep 2' ${token}`, { limits: { processes: 64, seconds: 30 } });
    const r = expectFailure(result, 'build-processes');
    expect(r.reason).toBe('the build could not fork: more than 64 processes');
    expect(existsSync(dest)).toBe(false);
    expect(processesWith(token)).toEqual([]);
    // Its pids group went with it (once the kernel has released its last processes).
    for (let i = 0; i < 50 && ownPidsGroups().length; i++) await new Promise((r) => setTimeout(r, 100));
    expect(ownPidsGroups()).toEqual([]);
    await expectNormalBuild();
  });

  it('runBuild - another build completes while a fork bomb runs beside it', async () => {
    const token = `beside${process.pid}x${serial}`;
    const stop = new AbortController();
    // The bomb's build lasts until it is stopped, its processes at the cap meanwhile: the bomb runs in a
    // subshell forked while the group is still empty, and the build's own shell then execs (no fork), so a
    // refused fork can never end the build itself, however the two race on a loaded machine.
    const bomb = build({}, `sh -c '(bomb() { bomb | bomb & }; bomb); exec sleep 120' ${token}`, { limits: { processes: 64, seconds: 150 }, signal: stop.signal });
    let bombDone = false;
    void bomb.then(() => (bombDone = true));
    const normal = await build({ 'helper.c': 'int main(void) { return 0; }\n' }, 'gcc -o helper helper.c');
    if (!normal.result.ok) throw new Error(`${normal.result.reason}\n${normal.result.log}`);
    expect(existsSync(join(normal.dest, 'helper'))).toBe(true);
    expect(bombDone).toBe(false);
    stop.abort();
    expectFailure((await bomb).result, 'build-cancelled');
    expect(processesWith(token)).toEqual([]);
  });

  it('runBuild - a Python os.fork loop fails at the process limit, and the next build succeeds', async () => {
    const { result } = await build({ 'fork.py': 'import os\nwhile True:\n    os.fork()\n' }, 'python3 fork.py', { limits: { processes: 64, seconds: 30 } });
    const r = expectFailure(result, 'build-processes');
    expect(r.log).toMatch(/Resource temporarily unavailable/);
    await expectNormalBuild();
  });

  it('runBuild - a build that writes until its disk budget fails with the disk reason, and the next build succeeds', async () => {
    const { result, dest } = await build({}, 'dd if=/dev/zero of=filler bs=1M count=64', { limits: { diskBytes: 16 * MiB } });
    const r = expectFailure(result, 'build-disk');
    expect(r.reason).toBe('the build wrote more than its 16 MiB disk budget');
    expect(r.log).toMatch(/No space left on device/);
    expect(existsSync(dest)).toBe(false);
    await expectNormalBuild();
  });

  it('runBuild - a build that tries to download fails with the network error in its log, and the next build succeeds', async () => {
    const fetch = `python3 -c "import urllib.request; urllib.request.urlopen('http://1.1.1.1/', timeout=5)"`;
    const { result } = await build({}, `curl -sS -m 5 http://1.1.1.1/; ${fetch}`);
    const r = expectFailure(result, 'build-failed');
    expect(r.reason).toBe('the build command failed (exited with code 1)');
    expect(r.log).toMatch(/Network is unreachable/);
    expect(r.log).toMatch(/curl: \(7\)/);
    await expectNormalBuild();
  });

  it('runBuild - a build that prints 10 MiB succeeds with its log cut to 64 KiB, start and end kept', async () => {
    const { result } = await build({}, `python3 -c "print('x' * (10 << 20)); print('END')"`);
    if (!result.ok) throw new Error(`${result.reason}\n${result.log.slice(0, 500)}`);
    const log = result.value.log;
    const total = 10 * MiB + 1 + 4;
    const cut = total - 64 * 1024;
    const marker = `\n[… ${cut} bytes cut]\n`;
    expect(log).toContain(marker);
    expect(log.endsWith('xxx\nEND\n')).toBe(true);
    expect(Buffer.byteLength(log)).toBe(64 * 1024 + Buffer.byteLength(marker));
    await expectNormalBuild();
  });

  it('runBuild - a built folder holding a symlink out of it is refused by intake, and the next build succeeds', async () => {
    const { result, dest } = await build({ 'a.txt': 'a' }, 'ln -s /etc/passwd passwd');
    const r = expectFailure(result, 'build-output');
    expect(r.reason).toMatch(/^the built folder was refused: entry ".\/passwd" is a symbolic link/);
    expect(existsSync(dest)).toBe(false);
    await expectNormalBuild();
  });

  it('runBuild - a built folder that cannot be packed (a file its own build made unreadable) fails as output', async () => {
    const { result, dest } = await build({}, 'echo secret > hidden && chmod 000 hidden');
    const r = expectFailure(result, 'build-output');
    expect(r.reason).toBe('the built folder could not be packed (exited with code 2)');
    expect(r.log).toMatch(/hidden: Cannot open: Permission denied/);
    expect(existsSync(dest)).toBe(false);
    await expectNormalBuild();
  });

  it('runBuild - processes a build leaves running (in the background, or in a session of their own) are killed when it ends', async () => {
    const token = `left${process.pid}x${serial}`;
    const sleeper = `python3 -c 'import time; time.sleep(300)' ${token}`;
    const { result } = await build({}, `${sleeper} & setsid ${sleeper} & sleep 0.5; echo left`);
    if (!result.ok) throw new Error(`${result.reason}\n${result.log}`);
    expect(result.value.log).toBe('left\n');
    expect(result.value.seconds).toBeLessThan(300);
    expect(processesWith(token)).toEqual([]);
    await expectNormalBuild();
  });

  it('runBuild - a build over its memory limit fails with the memory reason, and the next build succeeds', async () => {
    const { result } = await build({}, `python3 -c "b = bytearray(512 << 20); print(len(b))"`, { limits: { memoryBytes: 128 * MiB } });
    const r = expectFailure(result, 'build-memory');
    expect(r.reason).toBe('the build used more than 128 MiB of memory');
    await expectNormalBuild();
  });

  it('runBuild - a cancelled build stops at once with its own code', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 500);
    const { result, dest } = await build({}, 'sleep 60', { signal: stop.signal });
    const r = expectFailure(result, 'build-cancelled');
    expect(r.seconds).toBeLessThan(60);
    expect(existsSync(dest)).toBe(false);
    await expectNormalBuild();
  });

  it('runBuild - a failing build command fails with its exit code and its log, and an existing dest is refused', async () => {
    const { result } = await build({ 'broken.c': 'int main(void) { return }\n' }, 'gcc -o broken broken.c');
    const r = expectFailure(result, 'build-failed');
    expect(r.reason).toBe('the build command failed (exited with code 1)');
    expect(r.log).toMatch(/broken\.c:1:.*error/);
    const taken = await runBuild({ source: botFolder({}), dest: base, command: 'true' });
    expect(expectFailure(taken, 'build-sandbox').reason).toBe(`cannot build into ${base}: it already exists`);
  });
});

describe.skipIf(!CAN_SANDBOX)('installedToolchains', () => {
  it('toolchains - lists gcc and python3 with their versions, and every one listed starts inside a build', async () => {
    const found = findToolchains();
    const names = found.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['gcc', 'python3']));
    expect(found.find((t) => t.name === 'gcc')!.version).toBe(execFileSync('gcc', ['--version'], { encoding: 'utf8' }).split('\n')[0]);
    expect(installedToolchains()).toEqual(found);
    const asks = found.map((t) => (t.name === 'go' ? 'go version' : `${t.name} --version`)).join(' && ');
    const { result } = await build({}, `{ ${asks}; } >/dev/null 2>&1 && echo all`);
    if (!result.ok) throw new Error(`${result.reason}\n${result.log}`);
    expect(result.value.log).toBe('all\n');
  });

  it('toolchains - a Java bot compiles with javac in its build where a JDK is listed', async () => {
    if (!findToolchains(undefined, ['javac']).length) return;
    const { result, dest } = await build({ 'Bot.java': 'public class Bot { public static void main(String[] a) { System.out.println("hi"); } }\n' }, 'javac Bot.java', { limits: { seconds: 120 } });
    if (!result.ok) throw new Error(`${result.reason}\n${result.log.slice(0, 2000)}`);
    expect(existsSync(join(dest, 'Bot.class'))).toBe(true);
  });
});

describe.skipIf(!CAN_SANDBOX)('runBuild without root', () => {
  // The referee as an ordinary user: the build keeps the user's uid in a user namespace, with no control
  // groups; RLIMIT_NPROC (counted in that namespace) stops the bomb, bwrap's tmpfs of the budget the disk fill.
  it.runIf(process.getuid?.() === 0)('runBuild - as a referee that is not root: a C bot builds, a fork bomb and a disk fill fail with their reasons', () => {
    const r = runFixtureAsNobody('test/fixtures/build-as-user.ts', 120_000);
    expect(r.status, r.stderr).toBe(0);
    const seen = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    if ('unsupported' in seen && process.env.CI !== 'true') return;
    expect(seen).toEqual({ uid: 65534, gcc: 'ok', binary: true, bomb: 'build-processes', disk: 'build-disk', after: 'ok' });
  }, 150_000);
});
