import { execFileSync } from 'node:child_process';
import { closeSync, createReadStream, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackArchive, unpackTarStream } from '../../src/intake/unpack.ts';

// Issue 32's hostile archives, made with real tools (python3's tarfile and zipfile, GNU tar) in a real temp
// folder and unpacked for real: each must be refused with its reason, the intake folder must be gone again,
// and nothing may appear anywhere else in the temp tree.

const MAKE = String.raw`
import gzip, io, os, sys, tarfile, zipfile
kind, out, extra = sys.argv[1], sys.argv[2], sys.argv[3]
MiB = 1 << 20

def tgz(members):
    with tarfile.open(out, 'w:gz', format=tarfile.GNU_FORMAT) as t:
        for info, data in members:
            t.addfile(info, io.BytesIO(data) if data is not None else None)

def file(name, data=b'x', mode=0o644):
    i = tarfile.TarInfo(name); i.size = len(data); i.mode = mode
    return (i, data)

def special(name, typ, linkname=''):
    i = tarfile.TarInfo(name); i.type = typ; i.linkname = linkname
    if typ == tarfile.CHRTYPE: i.devmajor, i.devminor = 1, 3
    return (i, None)

def big(name, total_mib, chunk):
    # A tar.gz of one huge file made instantly: gzip members may be concatenated, so the same compressed
    # MiB repeated is a valid stream of total_mib MiB.
    i = tarfile.TarInfo(name); i.size = total_mib * MiB; i.mode = 0o644
    member = gzip.compress(chunk, 6)
    with open(out, 'wb') as f:
        f.write(gzip.compress(i.tobuf(tarfile.GNU_FORMAT)))
        for _ in range(total_mib): f.write(member)
        f.write(gzip.compress(b'\0' * 1024))

if kind == 'dotdot': tgz([file('bot.py'), file('../../x', b'escaped')])
elif kind == 'absolute': tgz([file('bot.py'), file(extra, b'escaped')])
elif kind == 'symlink': tgz([file('bot.py'), special('passwd', tarfile.SYMTYPE, '/etc/passwd')])
elif kind == 'hardlink': tgz([file('bot.py'), special('passwd', tarfile.LNKTYPE, '/etc/passwd')])
elif kind == 'device': tgz([file('bot.py'), special('null', tarfile.CHRTYPE)])
elif kind == 'fifo': tgz([file('bot.py'), special('pipe', tarfile.FIFOTYPE)])
elif kind == 'bomb': big('zeros', 1024, b'\0' * MiB)
elif kind == 'ratio': big('zeros', 90, b'\0' * MiB)
elif kind == 'big': big('big.bin', 200, (os.urandom(800) + b'\0' * 24000) * 43)
elif kind == 'many': tgz([file('f%05d' % n, b'') for n in range(50000)])
elif kind == 'many-zip':
    with zipfile.ZipFile(out, 'w') as z:
        for n in range(50000): z.writestr('f%05d' % n, b'')
elif kind == 'duplicate': tgz([file('bot.py'), file('bot.py')])
elif kind == 'case': tgz([file('Bot.py'), file('bot.py')])
elif kind == 'unicode': tgz([file('caf\u00e9.py'), file('cafe\u0301.py')])
elif kind == 'under-file': tgz([file('lib'), file('lib/x.py')])
elif kind == 'long': tgz([file('/'.join(['d' * 200] * 8))])
elif kind == 'zip-symlink':
    with zipfile.ZipFile(out, 'w') as z:
        z.writestr('bot.py', b'x')
        i = zipfile.ZipInfo('passwd'); i.create_system = 3; i.external_attr = (0o120777 << 16)
        z.writestr(i, '/etc/passwd')
elif kind == 'zip-duplicate':
    with zipfile.ZipFile(out, 'w') as z:
        z.writestr('lib', b'x'); z.writestr('lib/x.py', b'y'); z.writestr('Bot.py', b'1'); z.writestr('bot.py', b'2')
elif kind == 'zip-truncated':
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z: z.writestr('bot.py', os.urandom(5000))
    open(out, 'wb').write(buf.getvalue()[:3000])
elif kind == 'zip-case':
    with zipfile.ZipFile(out, 'w') as z:
        z.writestr('Bot.py', b'1'); z.writestr('bot.py', b'2')
elif kind == 'zip-dotdot':
    with zipfile.ZipFile(out, 'w') as z:
        z.writestr('bot.py', b'x'); z.writestr('../../x', b'escaped')
elif kind == 'zip-bomb':
    with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
        with z.open('zeros', 'w', force_zip64=True) as f:
            for _ in range(150): f.write(b'\0' * MiB)
else: raise SystemExit('unknown kind ' + kind)
`;

let root: string;
let work: string;
let script: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'intake-hostile-'));
  work = join(root, 'a', 'b');
  mkdirSync(work, { recursive: true });
  script = join(root, 'make.py');
  writeFileSync(script, MAKE);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every path under `dir`, recursively. */
function tree(dir: string, at = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, at), { withFileTypes: true })) {
    const rel = at ? `${at}/${e.name}` : e.name;
    out.push(rel);
    if (e.isDirectory()) out.push(...tree(dir, rel));
  }
  return out.sort();
}

/** Makes the hostile archive `kind`, unpacks it, and returns the refusal after checking nothing was left. */
async function refused(kind: string, ext = 'tar.gz'): Promise<string> {
  const archive = join(work, `${kind}.${ext}`);
  execFileSync('python3', [script, kind, archive, join(root, 'abs-escaped')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const before = tree(root);
  const into = join(work, `in-${kind}`);
  const fds = readdirSync('/proc/self/fd').length;
  const r = await unpackArchive(archive, into);
  expect(r.ok, `${kind} was accepted`).toBe(false);
  expect(tree(root)).toEqual(before);
  // A stream closes its file a moment after it is done (yauzl's, or an fs stream's close on the thread pool,
  // slower on a loaded machine): wait for the count to come back, up to 5 s; a file left open never does.
  for (let i = 0; i < 100 && readdirSync('/proc/self/fd').length > fds; i++) await new Promise((done) => setTimeout(done, 50));
  expect(readdirSync('/proc/self/fd').length, `${kind} left a file open`).toBe(fds);
  return r.ok ? '' : r.reason;
}

describe('intake - hostile archives are refused and leave nothing behind', () => {
  it('intake - a ../../x entry is refused', async () => {
    expect(await refused('dotdot')).toMatch(/"\.\.\/\.\.\/x" has a '\.\.' component/);
  });

  it('intake - an absolute path is refused', async () => {
    expect(await refused('absolute')).toMatch(/abs-escaped" is an absolute path/);
  });

  it('intake - a symlink to /etc/passwd is refused', async () => {
    expect(await refused('symlink')).toMatch(/"passwd" is a symbolic link; only files and folders/);
  });

  it('intake - a hard link is refused', async () => {
    expect(await refused('hardlink')).toMatch(/"passwd" is a hard link/);
  });

  it('intake - a device node and a fifo are refused', async () => {
    expect(await refused('device')).toMatch(/"null" is a device/);
    expect(await refused('fifo')).toMatch(/"pipe" is a fifo/);
  });

  it('intake - a 1 GiB-unpacked bomb is refused at its header, in bounded memory', async () => {
    const rss = process.memoryUsage().rss;
    expect(await refused('bomb')).toMatch(/unpacks to more than 100 MiB \(entry "zeros" declares 1024 MiB\)/);
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 2 ** 20);
  });

  it('intake - a file under the size cap that compresses beyond 200:1 is refused while reading', async () => {
    const rss = process.memoryUsage().rss;
    expect(await refused('ratio')).toMatch(/more than 200 times its size .*compression bomb/);
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 2 ** 20);
  });

  it('intake - a bomb arriving as a stream in 1 MiB chunks (an upload) is refused in bounded memory too', async () => {
    await refused('ratio');
    const archive = join(work, 'ratio.tar.gz');
    const before = tree(root);
    const rss = process.memoryUsage().rss;
    const r = await unpackTarStream(createReadStream(archive, { highWaterMark: 2 ** 20 }), join(work, 'in-stream'));
    expect(r.ok ? '' : r.reason).toMatch(/compression bomb/);
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 2 ** 20);
    expect(tree(root)).toEqual(before);
  });

  it('intake - a zip bomb is refused by its declared size', async () => {
    expect(await refused('zip-bomb', 'zip')).toMatch(/unpacks to more than 100 MiB/);
  });

  it('intake - 50,000 tiny files are refused (tar while reading, zip from its directory)', async () => {
    expect(await refused('many')).toMatch(/more than 10000 entries/);
    expect(await refused('many-zip', 'zip')).toMatch(/holds 50000 entries; at most 10000/);
  });

  it('intake - a 200 MiB file is refused', async () => {
    expect(await refused('big')).toMatch(/unpacks to more than 100 MiB \(entry "big.bin" declares 200 MiB\)/);
  });

  it('intake - a truncated gzip is refused', async () => {
    const src = join(root, 'src');
    mkdirSync(src);
    writeFileSync(join(src, 'bot.py'), Buffer.alloc(200_000, 'abcdefghij'.repeat(7) + String(Math.random())));
    const full = join(work, 'full.tar.gz');
    execFileSync('tar', ['czf', full, '-C', src, '.']);
    const cut = join(work, 'cut.tgz');
    writeFileSync(cut, execFileSync('head', ['-c', '300', full]));
    rmSync(full);
    const before = tree(root);
    const r = await unpackArchive(cut, join(work, 'in-cut'));
    expect(r.ok ? '' : r.reason).toMatch(/damaged or truncated/);
    expect(tree(root)).toEqual(before);
  });

  it('intake - a truncated zip is refused', async () => {
    expect(await refused('zip-truncated', 'zip')).toMatch(/^not a valid zip archive: /);
  });

  it('intake - a text file is refused as not an archive', async () => {
    const text = join(work, 'notes.tar.gz');
    writeFileSync(text, 'just some text, named like an archive\n');
    const before = tree(root);
    const r = await unpackArchive(text, join(work, 'in-text'));
    expect(r.ok ? '' : r.reason).toBe('not an archive: a .tar.gz, .tgz, .tar or .zip file is expected');
    expect(tree(root)).toEqual(before);
  });

  it('intake - duplicate entries are refused, also by case, by Unicode normalisation, and a file under a file', async () => {
    expect(await refused('duplicate')).toMatch(/"bot.py" appears twice/);
    expect(await refused('case')).toMatch(/"bot.py" appears twice/);
    expect(await refused('unicode')).toMatch(/appears twice/);
    expect(await refused('under-file')).toMatch(/"lib\/x.py" is under "lib", which is a file/);
  });

  it('intake - a path longer than the cap is refused', async () => {
    expect(await refused('long')).toMatch(/has a path longer than 1024 bytes/);
  });

  it('intake - a zip holding a symlink, a ../../x entry, a file under a file or a case duplicate is refused', async () => {
    expect(await refused('zip-symlink', 'zip')).toMatch(/"passwd" is a symbolic link/);
    expect(await refused('zip-dotdot', 'zip')).toMatch(/\.\.\/\.\.\/x/);
    expect(await refused('zip-duplicate', 'zip')).toMatch(/"lib\/x.py" is under "lib", which is a file/);
    expect(await refused('zip-case', 'zip')).toMatch(/"bot.py" appears twice/);
  });

  it('intake - an archive over 10 MiB is refused before it is read', async () => {
    const huge = join(work, 'huge.tar');
    writeFileSync(huge, Buffer.alloc(11 * 2 ** 20));
    const fd = openSync(huge, 'r+');
    writeSync(fd, 'ustar', 257);
    closeSync(fd);
    const r = await unpackArchive(huge, join(work, 'in-huge'));
    expect(r.ok ? '' : r.reason).toBe('the archive is 11 MiB; at most 10 MiB');
    rmSync(huge);
  });
});
