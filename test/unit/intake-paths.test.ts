import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEntryPath } from '../../src/intake/entry-path.ts';
import { INTAKE_LIMITS } from '../../src/intake/limits.ts';
import { archiveFormat } from '../../src/intake/unpack.ts';

const check = (p: string) => checkEntryPath(p, INTAKE_LIMITS);

describe('intake - entry names and formats', () => {
  it('intake - relative names are split; ./ and empty parts dropped; the top folder is no parts', () => {
    expect(check('./lib//a.py')).toMatchObject({ ok: true, value: { parts: ['lib', 'a.py'], keys: ['lib', 'lib/a.py'] } });
    expect(check('./')).toMatchObject({ ok: true, value: { parts: [] } });
    expect(check('Lib/Café.py')).toMatchObject({ ok: true, value: { keys: ['lib', 'lib/café.py'] } });
    expect(check('cafe\u0301.py').ok && check('café.py').ok).toBe(true);
    const a = check('cafe\u0301.py');
    const b = check('caf\u00e9.py');
    expect(a.ok && b.ok && a.value.keys[0] === b.value.keys[0]).toBe(true);
  });

  it('intake - absolute, .., NUL, backslash, too long or too deep names are refused with the name', () => {
    const reason = (p: string) => {
      const r = check(p);
      return r.ok ? 'accepted' : r.reason;
    };
    expect(reason('/etc/passwd')).toBe('entry "/etc/passwd" is an absolute path');
    expect(reason('C:/x')).toBe('entry "C:/x" is an absolute path');
    expect(reason('a/../../x')).toBe(`entry "a/../../x" has a '..' component`);
    expect(reason('a\\..\\x')).toMatch(/has a backslash/);
    expect(reason('a\0b')).toMatch(/has a NUL byte/);
    expect(reason('a\nb')).toBe('entry "a\\nb" has a control character in its name');
    expect(reason('x\x1b[2J')).toMatch(/has a control character/);
    expect(reason('')).toMatch(/has an empty name/);
    expect(reason('x'.repeat(256))).toMatch(/has a name longer than 255 bytes/);
    expect(reason(Array(34).fill('d').join('/'))).toMatch(/nested more than 32 folders deep/);
  });

  it('intake - property: an accepted name always stays inside the folder it is unpacked into', () => {
    const part = fc.oneof(fc.constantFrom('..', '.', '', '/', 'a', 'B', '\\'), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        const r = check(parts.join('/'));
        if (!r.ok) return true;
        const at = resolve('/intake/in', ...r.value.parts);
        return r.value.parts.length === 0 || (at.startsWith('/intake/in/') && join('/intake/in', ...r.value.parts) === at);
      }),
    );
  });

  it('intake - formats are told by content: gzip, zip, ustar; anything else is none', () => {
    expect(archiveFormat(Buffer.from([0x1f, 0x8b, 0x08, 0]))).toBe('tar.gz');
    expect(archiveFormat(Buffer.from('PK\x03\x04rest', 'latin1'))).toBe('zip');
    expect(archiveFormat(Buffer.from('PK\x05\x06', 'latin1'))).toBe('zip');
    const tar = Buffer.alloc(512);
    tar.write('ustar', 257, 'latin1');
    expect(archiveFormat(tar)).toBe('tar');
    expect(archiveFormat(Buffer.from('hello, world'))).toBeUndefined();
    expect(archiveFormat(Buffer.alloc(0))).toBeUndefined();
  });
});
