/**
 * checkFolder on real temp folders: a bot's folder is judged by its real path, so a link to /, to a home
 * folder, to a guarded folder (the database's) or to a folder of another owner is refused, and a plain
 * folder (or a link to one of the same owner) is its real path.
 */
import { chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFolder } from '../../src/sandbox/folder.ts';

const base = mkdtempSync(join(tmpdir(), 'arena-folder-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('checkFolder', () => {
  it('checkFolder - a folder is its real path; a link to it, of the same owner, too', () => {
    const mine = join(base, 'mine');
    mkdirSync(mine);
    symlinkSync(mine, join(base, 'alias'));
    expect(checkFolder(mine, [])).toEqual({ ok: true, value: mine });
    expect(checkFolder(join(base, 'alias'), [])).toEqual({ ok: true, value: mine });
  });

  it('checkFolder - links to /, a home folder or a guarded folder are refused by where they lead', () => {
    const db = join(base, 'db');
    mkdirSync(db);
    const home = join(base, 'home-of-referee');
    mkdirSync(home);
    for (const [name, target, why] of [
      ['to-root', '/', /\(really \/\), which is \/ or a home folder/],
      ['to-home', home, /which is \/ or a home folder/],
      ['to-db', db, /\(really .*db\) (is a protected folder|holds .*arena\.db)/],
      ['above-db', base, /holds .*db, which no bot may see/],
    ] as const) {
      symlinkSync(target, join(base, name));
      const r = checkFolder(join(base, name), [join(db, 'arena.db'), db], home);
      expect(r.ok ? `${name} accepted` : r.reason, name).toMatch(why);
    }
  });

  it.runIf(process.getuid?.() === 0)('checkFolder - a link to a folder of another owner than the link\'s is refused', () => {
    const theirs = join(base, 'theirs');
    mkdirSync(theirs);
    chownSync(theirs, 1234, 1234);
    symlinkSync(theirs, join(base, 'to-theirs'));
    const r = checkFolder(join(base, 'to-theirs'), []);
    expect(r.ok ? 'accepted' : r.reason).toMatch(/is a link to a folder of another user \(uid 1234, the link's is 0\)/);
    // Registered as itself, the folder is theirs to give: accepted.
    expect(checkFolder(theirs, []).ok).toBe(true);
  });
});
