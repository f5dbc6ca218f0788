import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRegisteredFolder } from '../../src/app/bots/registered-folder.ts';

const ROOT = resolve(import.meta.dirname, '../..');

describe('registered folder', () => {
  const dbDir = mkdtempSync(join(tmpdir(), 'arena-regdb-'));
  const ctx = { projectRoot: ROOT, dbLocation: join(dbDir, 'arena.db') };

  it('registered folder - / , the checkout and the database\'s folder are refused by the sandbox\'s rule, naming the way out', () => {
    for (const folder of ['/', ROOT, dbDir]) {
      const r = checkRegisteredFolder(ctx, 'b', 'python3 main.py', folder);
      expect(r, folder).toMatchObject({ ok: false, code: 'bad-folder', reason: expect.stringMatching(/^bot b would never start in the sandbox: its folder .*--cwd <a folder of its own>$/) });
    }
  });

  it('registered folder - a folder of its own, no folder (its program on PATH), or code of the checkout (shown read-only) is accepted', () => {
    const own = mkdtempSync(join(tmpdir(), 'arena-own-'));
    expect(checkRegisteredFolder(ctx, 'b', 'python3 main.py', own).ok).toBe(true);
    expect(checkRegisteredFolder(ctx, 'b', 'python3 main.py', undefined).ok).toBe(true);
    expect(checkRegisteredFolder(ctx, 'b', `${process.execPath} ${join(ROOT, 'test/fixtures/bots/instant.ts')}`, ROOT).ok).toBe(true);
  });
});
