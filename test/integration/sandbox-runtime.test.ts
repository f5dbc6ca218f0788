/**
 * What a command needs inside the sandbox, found on real files: a version manager's shims (a fake pyenv
 * with the real shim's shape, asked through its own `which`), #! scripts, a venv, and the guard that keeps
 * home folders and protected paths from being shown whole.
 */
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRuntime } from '../../src/sandbox/runtime.ts';

const top = mkdtempSync(join(tmpdir(), 'arena-runtime-'));
const mgr = join(top, 'mgr');

function file(path: string, text: string, mode = 0o755): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

// A pyenv look-alike: `pyenv which NAME` answers from the .python-version of the folder it runs in.
file(join(mgr, 'libexec', 'pyenv'), `#!/bin/sh\n[ "$1" = which ] || exit 2\nv=$(cat .python-version 2>/dev/null || cat "$PYENV_ROOT/version")\n[ -x "$PYENV_ROOT/versions/$v/bin/$2" ] || { echo "pyenv: $2: command not found" >&2; exit 127; }\necho "$PYENV_ROOT/versions/$v/bin/$2"\n`);
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
  it('resolveRuntime - a version-manager shim: the program it runs from the bot folder, and that version folder read-only', () => {
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
    expect(r.ok ? '' : r.reason).toMatch(/cannot tell which program the shim .*python3 runs from .* \(pyenv which said: pyenv: python3: command not found\)/);
  });

  it('resolveRuntime - a #! script through env: the script runs itself, its interpreter found through the shim', () => {
    const folder = botFolder('3.99');
    const script = file(join(folder, 'bot.py'), '#!/usr/bin/env python3\nprint(1)\n');
    const r = resolveRuntime('./bot.py', { folder, path: PATH, guarded: [] });
    expect(r.ok && r.value.program).toBe(script);
    expect(r.ok && r.value.binds).toEqual([join(mgr, 'versions', '3.99')]);
    expect(r.ok && r.value.pathDirs).toContain(join(mgr, 'versions', '3.99', 'bin'));
  });

  it("resolveRuntime - a venv in the bot's folder: run as itself, its base interpreter's prefix shown", () => {
    const folder = botFolder();
    mkdirSync(join(folder, '.venv', 'bin'), { recursive: true });
    symlinkSync(join(mgr, 'versions', '3.99', 'bin', 'python3'), join(folder, '.venv', 'bin', 'python'));
    file(join(folder, '.venv', 'pyvenv.cfg'), `home = ${join(mgr, 'versions', '3.99', 'bin')}\n`, 0o644);
    const r = resolveRuntime('.venv/bin/python', { folder, path: PATH, guarded: [] });
    expect(r.ok && r.value.program).toBe(join(folder, '.venv', 'bin', 'python'));
    expect(r.ok && r.value.binds).toEqual([join(mgr, 'versions', '3.99')]);
  });

  it('resolveRuntime - a program under a guarded folder or a home folder: only the file is shown, never the folder', () => {
    const home = join(top, 'home');
    const tool = file(join(home, 'bin', 'tool'), '#!/bin/sh\nexit 0\n');
    const r = resolveRuntime(tool, { folder: botFolder(), path: PATH, guarded: [home] });
    expect(r.ok && r.value.binds).toEqual([tool]);
    const sys = resolveRuntime('sh', { folder: botFolder(), path: PATH, guarded: [] });
    expect(sys.ok && sys.value.binds).toEqual([]);
  });

  it('resolveRuntime - no such program: a one-line reason', () => {
    const r = resolveRuntime('no-such-solver', { folder: botFolder(), path: PATH, guarded: [] });
    expect(r).toEqual({ ok: false, code: 'no-program', reason: 'no program "no-such-solver" on PATH' });
  });
});
