/**
 * What a command needs inside the sandbox, found on real files: a version manager's shims (a fake pyenv
 * with the real shim's shape, asked through its own `which`), #! scripts, a venv, and the guard that keeps
 * home folders and protected paths from being shown whole. Nothing in the bot's folder is executed or
 * followed: a shim line or a pyvenv.cfg there is ignored, and a stored runtime is checked again.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRuntime, resolveRuntime } from '../../src/sandbox/runtime.ts';

const top = mkdtempSync(join(tmpdir(), 'arena-runtime-'));
const mgr = join(top, 'mgr');

function file(path: string, text: string, mode = 0o755): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

// A pyenv look-alike: `pyenv which NAME` answers from PYENV_VERSION, else the .python-version of the folder it runs in.
file(join(mgr, 'libexec', 'pyenv'), `#!/bin/sh\n[ "$1" = which ] || exit 2\nv=\${PYENV_VERSION:-$(cat .python-version 2>/dev/null || cat "$PYENV_ROOT/version")}\n[ -x "$PYENV_ROOT/versions/$v/bin/$2" ] || { echo "pyenv: $2: command not found" >&2; exit 127; }\necho "$PYENV_ROOT/versions/$v/bin/$2"\n`);
file(join(mgr, 'version'), '3.98\n', 0o644);
// The shim, shaped as pyenv writes them.
file(join(mgr, 'shims', 'python3'), `#!/usr/bin/env bash\nset -e\nprogram="\${0##*/}"\nexport PYENV_ROOT="${mgr}"\nexec "${mgr}/libexec/pyenv" exec "$program" "$@"\n`);
for (const v of ['3.98', '3.99']) {
  mkdirSync(join(mgr, 'versions', v, 'bin'), { recursive: true });
  symlinkSync('/usr/bin/true', join(mgr, 'versions', v, 'bin', 'python3'));
}
const PATH = `${join(mgr, 'shims')}:/usr/bin:/bin`;

function botFolder(version?: string): string {
  const folder = mkdtempSync(join(top, 'bot-'));
  if (version) file(join(folder, '.python-version'), `${version}\n`, 0o644);
  return folder;
}

describe('resolveRuntime', () => {
  it("resolveRuntime - a version-manager shim: the program it runs for the bot folder's .python-version, and that version folder read-only", () => {
    for (const [version, expected] of [['3.99', '3.99'], [undefined, '3.98']] as const) {
      const folder = botFolder(version);
      const r = resolveRuntime('python3', { folder, path: PATH, guarded: [] });
      expect(r).toEqual({
        ok: true,
        value: { program: join(mgr, 'versions', expected, 'bin', 'python3'), binds: [join(mgr, 'versions', expected)], pathDirs: [join(mgr, 'versions', expected, 'bin')] },
      });
    }
  });

  it('resolveRuntime - a shim that cannot answer: the reason, with what the manager said', () => {
    const r = resolveRuntime('python3', { folder: botFolder('2.7'), path: PATH, guarded: [] });
    expect(r.ok ? '' : r.reason).toMatch(/cannot tell which program the shim .*python3 runs \(pyenv which said: pyenv: python3: command not found\)/);
  });

  it('resolveRuntime - a #! script through env: the script runs itself, its interpreter found through the shim', () => {
    const folder = botFolder('3.99');
    const script = file(join(folder, 'bot.py'), '#!/usr/bin/env python3\nprint(1)\n');
    const r = resolveRuntime('./bot.py', { folder, path: PATH, guarded: [] });
    expect(r.ok && r.value.program).toBe(script);
    expect(r.ok && r.value.binds).toEqual([join(mgr, 'versions', '3.99')]);
    expect(r.ok && r.value.pathDirs).toContain(join(mgr, 'versions', '3.99', 'bin'));
  });

  it("resolveRuntime - a venv in the bot's folder: run as itself inside; its pyvenv.cfg is never followed, whatever it names", () => {
    for (const home of [join(mgr, 'versions', '3.99', 'bin'), '/proc', top]) {
      const folder = botFolder();
      mkdirSync(join(folder, '.venv', 'bin'), { recursive: true });
      symlinkSync(join(mgr, 'versions', '3.99', 'bin', 'python3'), join(folder, '.venv', 'bin', 'python'));
      file(join(folder, '.venv', 'pyvenv.cfg'), `home = ${home}\n`, 0o644);
      const r = resolveRuntime('.venv/bin/python', { folder, path: PATH, guarded: [] });
      expect(r.ok && r.value.program).toBe(join(folder, '.venv', 'bin', 'python'));
      expect(r.ok && r.value.binds, home).toEqual([]);
    }
  });

  it("resolveRuntime - a shim line in the bot's own launcher is never run: its payload does not run, nothing is bound", () => {
    const folder = botFolder();
    const marker = join(top, `pwned-${Date.now()}`);
    file(join(folder, 'libexec', 'pyenv'), `#!/bin/sh\nid -u > ${marker}\necho /proc/self/exe\n`);
    const launcher = file(join(folder, 'launch'), `#!/bin/sh\nexec "${folder}/libexec/pyenv" exec python3 "$@"\n`);
    const r = resolveRuntime('./launch', { folder, path: PATH, guarded: [] });
    expect(r).toEqual({ ok: true, value: { program: launcher, binds: [], pathDirs: [] } });
    expect(existsSync(marker)).toBe(false);
  });

  it('resolveRuntime - the bot is read from its snapshot and named where it sees its folder', () => {
    const snapshot = botFolder('3.99');
    file(join(snapshot, 'bot.py'), '#!/usr/bin/env python3\nprint(1)\n');
    const r = resolveRuntime('./bot.py', { folder: '/bots/mine', content: snapshot, path: PATH, guarded: [] });
    expect(r.ok && r.value.program).toBe('/bots/mine/bot.py');
    expect(r.ok && r.value.binds).toEqual([join(mgr, 'versions', '3.99')]);
  });

  it('resolveRuntime - a runtime another user may write, or inside a guarded or home folder, is refused', () => {
    const home = join(top, 'home');
    const tool = file(join(home, 'bin', 'tool'), '#!/bin/sh\nexit 0\n');
    const guarded = resolveRuntime(tool, { folder: botFolder(), path: PATH, guarded: [home] });
    expect(guarded.ok ? 'accepted' : guarded.reason).toMatch(/lies inside .*home/);
    const shared = file(join(top, 'shared', 'bin', 'tool'), '#!/bin/sh\nexit 0\n', 0o777);
    const r = resolveRuntime(shared, { folder: botFolder(), path: PATH, guarded: [] });
    expect(r.ok ? 'accepted' : r.reason).toMatch(/is writable by other users \(mode 777\)/);
    const sys = resolveRuntime('sh', { folder: botFolder(), path: PATH, guarded: [] });
    expect(sys.ok && sys.value.binds).toEqual([]);
  });

  it('checkRuntime - a stored runtime whose folder became writable by others, or vanished, is refused at the start', () => {
    const own = join(top, 'own-runtime');
    file(join(own, 'bin', 'run'), '#!/bin/sh\nexit 0\n');
    const folder = botFolder();
    const r = resolveRuntime(join(own, 'bin', 'run'), { folder, path: PATH, guarded: [] });
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.binds).toEqual([own]);
    expect(checkRuntime(r.value, { folder, path: PATH, guarded: [] }).ok).toBe(true);
    chmodSync(own, 0o777);
    const later = checkRuntime(r.value, { folder, path: PATH, guarded: [] });
    expect(later.ok ? 'accepted' : later.reason).toMatch(/no longer safe to use: .*own-runtime.* writable by other users/);
    chmodSync(own, 0o755);
    expect(checkRuntime({ ...r.value, binds: ['/proc'] }, { folder, path: PATH, guarded: [] }).ok).toBe(false);
    expect(checkRuntime({ ...r.value, binds: [folder] }, { folder: '/elsewhere', content: folder, path: PATH, guarded: [] }).ok).toBe(false);
  });

  it('resolveRuntime - no such program: a one-line reason', () => {
    const r = resolveRuntime('no-such-solver', { folder: botFolder(), path: PATH, guarded: [] });
    expect(r).toEqual({ ok: false, code: 'no-program', reason: 'no program "no-such-solver" on PATH' });
  });
});
