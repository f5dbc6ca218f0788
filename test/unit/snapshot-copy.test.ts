/**
 * The snapshot copier on real temp folders: limits refused while copying (size by apparent length, entries,
 * depth, path length), special files refused, links kept as links and refused when they lead outside, the
 * copy read-only, and the hash stable across copies and places and changed by any content or mode change.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SNAPSHOT_LIMITS, takeSnapshot } from '../../src/sandbox/snapshot/copy.ts';
import { snapshotFolder } from '../../src/sandbox/snapshot/store.ts';

const made: string[] = [];
function temp(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), `snap-${prefix}-`));
  made.push(d);
  return d;
}
afterEach(() => {
  // rm(1) also removes trees deeper than a path can name, which Node's rmSync cannot.
  for (const d of made.splice(0)) execFileSync('sh', ['-c', 'chmod -R u+w "$1" && rm -rf "$1"', 'sh', d]);
});

/** A small bot folder: a script, a data file, a sub-folder and a link inside. */
function botFolder(): string {
  const f = temp('bot');
  writeFileSync(join(f, 'main.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
  mkdirSync(join(f, 'lib'));
  writeFileSync(join(f, 'lib', 'data.txt'), 'table\n', { mode: 0o600 });
  symlinkSync('lib/data.txt', join(f, 'data'));
  return f;
}

describe('snapshot copier - copies', () => {
  it('snapshot copier - copies files, folders and links read-only, named by the hash', () => {
    const f = botFolder();
    const store = temp('store');
    const s = takeSnapshot(f, store);
    expect(s.ok, s.ok ? '' : s.reason).toBe(true);
    if (!s.ok) return;
    expect(s.value.path).toBe(join(store, s.value.hash));
    const p = s.value.path!;
    expect(readFileSync(join(p, 'lib', 'data.txt'), 'utf8')).toBe('table\n');
    expect(statSync(join(p, 'main.sh')).mode & 0o777).toBe(0o555);
    // A private file is copied readable: the bot's uid must read its own code, and nothing else sees the store.
    expect(statSync(join(p, 'lib', 'data.txt')).mode & 0o777).toBe(0o444);
    expect(statSync(join(p, 'lib')).mode & 0o777).toBe(0o555);
    expect(lstatSync(join(p, 'data')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(p, 'data'))).toBe('lib/data.txt');
    expect(s.value.entries).toBe(4);
    expect(s.value.bytes).toBe(18 + 6);
  });

  it('snapshot copier - the hash is stable across copies, places and hash-only runs, and reuses the stored copy', () => {
    const a = botFolder();
    const b = botFolder();
    const store = temp('store');
    const sa = takeSnapshot(a, store);
    const sb = takeSnapshot(b, store);
    const only = takeSnapshot(a, store, { hashOnly: true });
    expect(sa.ok && sb.ok && only.ok).toBe(true);
    if (!sa.ok || !sb.ok || !only.ok) return;
    expect(sb.value.hash).toBe(sa.value.hash);
    expect(only.value.hash).toBe(sa.value.hash);
    expect(only.value.path).toBeUndefined();
    expect(sb.value.path).toBe(sa.value.path);
  });

  it('snapshot copier - a changed byte, an added file or an executable bit makes another hash', () => {
    const store = temp('store');
    const f = botFolder();
    const first = takeSnapshot(f, store, { hashOnly: true });
    writeFileSync(join(f, 'lib', 'data.txt'), 'tablf\n');
    const edited = takeSnapshot(f, store, { hashOnly: true });
    chmodSync(join(f, 'lib', 'data.txt'), 0o700);
    const exec = takeSnapshot(f, store, { hashOnly: true });
    writeFileSync(join(f, 'new'), '');
    const added = takeSnapshot(f, store, { hashOnly: true });
    const hashes = [first, edited, exec, added].map((s) => (s.ok ? s.value.hash : s.reason));
    expect(new Set(hashes).size).toBe(4);
  });
});

describe('snapshot copier - limits', () => {
  it('snapshot copier - sparse files count by apparent size and are refused before a byte is read', () => {
    const f = temp('sparse');
    for (let i = 0; i < 400; i++) {
      const fd = openSync(join(f, `s${String(i).padStart(3, '0')}`), 'w');
      ftruncateSync(fd, 64 * 2 ** 20);
      closeSync(fd);
    }
    const store = temp('store');
    const s = takeSnapshot(f, store);
    expect(s.ok).toBe(false);
    if (!s.ok) expect(s.reason).toMatch(/add up to more than 104857600 bytes \(at s001, 67108864 bytes\)/);
    // Nothing left behind in the store.
    expect(execFileSync('ls', ['-A', store], { encoding: 'utf8' })).toBe('');
  });

  it('snapshot copier - too many entries, too deep, or a path longer than the kernel names: one line each', () => {
    const many = temp('many');
    for (let i = 0; i < 30; i++) writeFileSync(join(many, `f${i}`), '');
    const m = takeSnapshot(many, temp('store'), { limits: { ...SNAPSHOT_LIMITS, maxEntries: 20 } });
    expect(m.ok ? '' : m.reason).toMatch(/holds more than 20 files and folders/);

    const deep = temp('deep');
    let d = deep;
    for (let i = 0; i < 40; i++) mkdirSync((d = join(d, 'd')));
    const dd = takeSnapshot(deep, temp('store'));
    expect(dd.ok ? '' : dd.reason).toMatch(/nested more than 32 folders deep/);

    // Deeper than PATH_MAX: made with relative mkdir steps (an absolute path that long cannot be named).
    const long = temp('long');
    const name = 'x'.repeat(200);
    execFileSync('python3', ['-c', `import os\nos.chdir(${JSON.stringify(long)})\nfor i in range(25):\n    os.mkdir('${name}'); os.chdir('${name}')\nopen('f', 'w').close()`]);
    const l = takeSnapshot(long, temp('store'), { limits: { ...SNAPSHOT_LIMITS, maxDepth: 64 } });
    expect(l.ok ? '' : l.reason).toMatch(/longer than the system can name/);
    expect(l.ok ? '' : l.reason).not.toMatch(/\n/);
  });

  it('snapshot copier - a fifo or a socket is refused', () => {
    const f = temp('fifo');
    execFileSync('mkfifo', [join(f, 'pipe')]);
    const s = takeSnapshot(f, temp('store'));
    expect(s.ok ? '' : s.reason).toMatch(/pipe is a special file/);
  });

  it('snapshot copier - links: absolute, climbing, chained out or dangling are refused; a link to a folder inside is kept', () => {
    const cases: Array<[string, (f: string) => void]> = [
      ['absolute', (f) => symlinkSync('/etc/passwd', join(f, 'l'))],
      ['climbing', (f) => symlinkSync('../x', join(f, 'l'))],
      ['chained', (f) => {
        mkdirSync(join(f, 'd'));
        symlinkSync('..', join(f, 'd', 'up'));
        symlinkSync('d/up/..', join(f, 'out'));
      }],
      ['dangling', (f) => symlinkSync('nothing', join(f, 'l'))],
    ];
    for (const [what, make] of cases) {
      const f = temp(what);
      make(f);
      const s = takeSnapshot(f, temp('store'));
      expect(s.ok ? `${what} accepted` : s.reason, what).toMatch(/link .* (points outside|leads outside|points to nothing)/);
    }
    const ok = temp('inside');
    mkdirSync(join(ok, 'real'));
    writeFileSync(join(ok, 'real', 'x'), 'x');
    symlinkSync('real', join(ok, 'alias'));
    expect(takeSnapshot(ok, temp('store')).ok).toBe(true);
  });

  it('snapshot copier - a folder that is a link is copied by its real path, a missing folder is refused', () => {
    const f = botFolder();
    const holder = temp('holder');
    symlinkSync(f, join(holder, 'via'));
    const store = temp('store');
    const a = takeSnapshot(f, store, { hashOnly: true });
    const b = takeSnapshot(join(holder, 'via'), store, { hashOnly: true });
    expect(a.ok && b.ok && a.value.hash === b.value.hash).toBe(true);
    expect(takeSnapshot(join(holder, 'none'), store).ok).toBe(false);
  });
});

describe('snapshot store - a machine without the copy', () => {
  it('snapshot store - takes the copy again when it hashes the same, refuses a changed folder', () => {
    const f = botFolder();
    const store = temp('store');
    const s = takeSnapshot(f, store, { hashOnly: true });
    if (!s.ok) throw new Error(s.reason);
    const again = snapshotFolder(store, s.value.hash, f);
    expect(again.ok ? again.value : again.reason).toBe(join(store, s.value.hash));
    writeFileSync(join(f, 'main.sh'), '#!/bin/sh\necho changed\n');
    const other = temp('store2');
    const changed = snapshotFolder(other, s.value.hash, f);
    expect(changed.ok ? 'accepted' : changed.reason).toMatch(/changed since it was registered/);
    rmSync(join(store, s.value.hash), { recursive: true, force: true });
  });
});
