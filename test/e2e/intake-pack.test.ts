import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBotFolder } from '../../src/intake/bot-folder.ts';
import { INTAKE_LIMITS } from '../../src/intake/limits.ts';
import { packFolder } from '../../src/intake/pack.ts';
import { unpackArchive } from '../../src/intake/unpack.ts';

// Packing a real folder and unpacking the archive again, with real files, real tar and real zip.

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'intake-pack-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const fresh = (name: string) => join(root, `${++n}-${name}`);

/** A listing that tells two trees apart: each path, file or folder, executable or not, contents' sha256. */
function listing(dir: string, at = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, at)).sort()) {
    const rel = at ? `${at}/${name}` : name;
    const st = statSync(join(dir, rel));
    if (st.isDirectory()) out.push(`${rel}/`, ...listing(dir, rel));
    else out.push(`${rel} ${st.mode & 0o111 ? 'x' : '-'} ${createHash('sha256').update(readFileSync(join(dir, rel))).digest('hex')}`);
  }
  return out;
}

/** A small bot folder with a subfolder, an empty folder, an executable, binary data and a long path. */
function botFolder(): string {
  const dir = fresh('bot');
  mkdirSync(join(dir, 'lib', 'deep'), { recursive: true });
  mkdirSync(join(dir, 'empty'));
  writeFileSync(join(dir, 'arena-bot.json'), JSON.stringify({ name: 'astar', run: 'python3 bot.py', transport: 'stdio' }));
  writeFileSync(join(dir, 'bot.py'), 'print("hi")\n');
  chmodSync(join(dir, 'bot.py'), 0o775);
  writeFileSync(join(dir, 'lib', 'data.bin'), Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 251)));
  writeFileSync(join(dir, 'lib', 'deep', `${'n'.repeat(150)}.txt`), 'a long name needs a GNU or pax header\n');
  writeFileSync(join(dir, 'café.py'), 'unicode name\n');
  writeFileSync(join(dir, 'lib', '__init__.py'), '');
  return dir;
}

describe('intake - packing and unpacking round-trip', () => {
  it('intake - pack then unpack gives the same tree, and packing twice gives the same bytes', async () => {
    const bot = botFolder();
    const a = await packFolder(bot, fresh('a.tar.gz'));
    const b = await packFolder(bot, fresh('b.tar.gz'));
    if (!a.ok || !b.ok) throw new Error(JSON.stringify([a, b]));
    expect(readFileSync(a.value.archive).equals(readFileSync(b.value.archive))).toBe(true);
    const out = fresh('out');
    const fds = readdirSync('/proc/self/fd').length;
    const u = await unpackArchive(a.value.archive, out);
    if (!u.ok) throw new Error(u.reason);
    // Every descriptor it opened is closed again (a stream closes its own a tick after its end: wait for it).
    for (let i = 0; i < 100 && readdirSync('/proc/self/fd').length > fds; i++) await new Promise((r) => setTimeout(r, 20));
    expect(readdirSync('/proc/self/fd').length).toBe(fds);
    expect(listing(out)).toEqual(listing(bot));
    expect(u.value).toMatchObject({ files: 6, folders: 3, bytes: a.value.bytes });
    // Canonical headers: no owner, no time, modes 0644/0755 (group-writable 0775 on disk became 0755).
    const tv = execFileSync('tar', ['tvzf', a.value.archive, '--numeric-owner'], { encoding: 'utf8' });
    expect(tv).toMatch(/-rwxr-xr-x 0\/0 +12 1970-01-01 00:00 bot.py/);
    expect(tv).not.toMatch(/ (?!0\/0)\d+\/\d+ /);
  });

  it('intake - the archive the system tar and python zip make of the same folder unpack to the same tree', async () => {
    const bot = botFolder();
    const tgz = fresh('sys.tgz');
    execFileSync('tar', ['czf', tgz, '-C', bot, '.']);
    const zip = fresh('sys.zip');
    execFileSync('python3', ['-c', 'import shutil,sys; shutil.make_archive(sys.argv[1][:-4], "zip", sys.argv[2])', zip, bot]);
    const plain = fresh('sys.tar');
    execFileSync('tar', ['cf', plain, '-C', bot, '.']);
    for (const archive of [tgz, zip, plain]) {
      const out = fresh('sys-out');
      const u = await unpackArchive(archive, out);
      if (!u.ok) throw new Error(`${archive}: ${u.reason}`);
      // python's zip keeps no mode for the executable bit on folders it lists; compare contents and kinds.
      expect(listing(out).map((l) => l.replace(/ [x-] /, ' '))).toEqual(listing(bot).map((l) => l.replace(/ [x-] /, ' ')));
    }
  });

  it('intake - property: any small tree of files and folders packs and unpacks to itself', async () => {
    const name = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,11}$/);
    const file = fc.record({ dir: fc.constantFrom('', 'a', 'a/b', 'c'), name, data: fc.uint8Array({ maxLength: 3000 }), exec: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(file, { maxLength: 12, selector: (f) => `${f.dir}/${f.name}` }), async (files) => {
        const dir = fresh('prop');
        mkdirSync(dir);
        for (const f of files) {
          // A name that is also one of the generator's folders would be both a folder and a file: a/b is one.
          if ((['a', 'c'].includes(f.name) && f.dir === '') || (f.name === 'b' && f.dir === 'a')) continue;
          mkdirSync(join(dir, f.dir), { recursive: true });
          writeFileSync(join(dir, f.dir, f.name), f.data, { mode: f.exec ? 0o755 : 0o644 });
        }
        const p = await packFolder(dir, fresh('prop.tgz'));
        if (readdirSync(dir).length === 0) {
          expect(p.ok ? '' : p.reason).toMatch(/^nothing to pack: .* is empty, or everything in it is excluded$/);
          return;
        }
        if (!p.ok) throw new Error(p.reason);
        const out = fresh('prop-out');
        const u = await unpackArchive(p.value.archive, out);
        if (!u.ok) throw new Error(u.reason);
        expect(listing(out)).toEqual(listing(dir));
      }),
      { numRuns: 25 },
    );
  });

  it('intake - exclude patterns leave files out, .gitignore style', async () => {
    const bot = botFolder();
    mkdirSync(join(bot, 'build'));
    writeFileSync(join(bot, 'build', 'out.o'), 'obj');
    writeFileSync(join(bot, 'notes.log'), 'log');
    const p = await packFolder(bot, fresh('ex.tar.gz'), { exclude: ['build/', '*.log', '!keep.log'] });
    if (!p.ok) throw new Error(p.reason);
    expect(p.value.paths).not.toContain('build/');
    expect(p.value.paths).not.toContain('notes.log');
    expect(p.value.paths).toContain('bot.py');
  });

  it('intake - a link inside the folder is packed as a copy of its file; one pointing outside is refused', async () => {
    const bot = botFolder();
    symlinkSync('bot.py', join(bot, 'main.py'));
    const p = await packFolder(bot, fresh('in.tar.gz'));
    if (!p.ok) throw new Error(p.reason);
    const out = fresh('in-out');
    const u = await unpackArchive(p.value.archive, out);
    expect(u.ok).toBe(true);
    expect(readFileSync(join(out, 'main.py'), 'utf8')).toBe('print("hi")\n');
    symlinkSync('/etc/passwd', join(bot, 'passwd'));
    const archive = fresh('out.tar.gz');
    const bad = await packFolder(bot, archive);
    expect(bad.ok ? '' : bad.reason).toMatch(/passwd is a symbolic link to \/etc\/passwd, outside the folder/);
    expect(existsSync(archive)).toBe(false);
  });

  it('intake - a fifo cannot be packed, nor a folder over the caps', async () => {
    const bot = botFolder();
    execFileSync('mkfifo', [join(bot, 'pipe')]);
    const r = await packFolder(bot, fresh('fifo.tar.gz'));
    expect(r.ok ? '' : r.reason).toMatch(/pipe is not a regular file, folder or link/);
    const small = { ...INTAKE_LIMITS, unpackedBytes: 1000 };
    const big = await packFolder(botFolder(), fresh('big.tar.gz'), { limits: small });
    expect(big.ok ? '' : big.reason).toMatch(/holds more than 1000 bytes of files/);
    const few = await packFolder(botFolder(), fresh('few.tar.gz'), { limits: { ...INTAKE_LIMITS, entries: 3 } });
    expect(few.ok ? '' : few.reason).toMatch(/holds more than 3 files and folders/);
  });

  it('intake - unpacking never writes into a folder that exists already', async () => {
    const bot = botFolder();
    const p = await packFolder(bot, fresh('x.tar.gz'));
    if (!p.ok) throw new Error(p.reason);
    const taken = fresh('taken');
    mkdirSync(taken);
    const r = await unpackArchive(p.value.archive, taken);
    expect(r.ok ? '' : r.reason).toMatch(/cannot unpack into .*\d+-taken: it already exists/);
    expect(readdirSync(taken)).toEqual([]);
  });
});

describe('intake - finding the bot and its manifest in an unpacked archive', () => {
  it('intake - the manifest is read at the top or in a single wrapping folder; none is refused', async () => {
    const bot = botFolder();
    const top = await packFolder(bot, fresh('top.tar.gz'));
    if (!top.ok) throw new Error(top.reason);
    const out = fresh('top-out');
    expect((await unpackArchive(top.value.archive, out)).ok).toBe(true);
    expect(readBotFolder(out)).toMatchObject({ ok: true, value: { folder: out, manifest: { bot: 'astar', run: 'python3 bot.py' } } });

    const parent = fresh('wrap');
    mkdirSync(parent);
    execFileSync('cp', ['-a', bot, join(parent, 'astar')]);
    const zip = fresh('wrapped.zip');
    execFileSync('python3', ['-c', 'import shutil,sys; shutil.make_archive(sys.argv[1][:-4], "zip", sys.argv[2])', zip, parent]);
    const wrapped = fresh('wrapped-out');
    expect((await unpackArchive(zip, wrapped)).ok).toBe(true);
    expect(readBotFolder(wrapped)).toMatchObject({ ok: true, value: { folder: join(wrapped, 'astar') } });

    rmSync(join(bot, 'arena-bot.json'));
    writeFileSync(join(bot, 'arena-bot.json.txt'), '{}');
    expect(readBotFolder(bot)).toEqual({ ok: false, code: 'manifest', reason: 'the bot has no arena-bot.json at its top (nor in a single top folder)' });
    writeFileSync(join(bot, 'arena-bot.json'), JSON.stringify({ name: 'astar', run: 'x', transport: 'stdio', builds: 'make' }));
    expect(readBotFolder(bot)).toMatchObject({ ok: false, reason: expect.stringMatching(/unknown key "builds"/) });
  });
});
