/**
 * What the audit tests share: a folder with the played database they copy, `arena` run to its end through
 * the real CLI (never a stack trace), copies of the database edited with real SQL as someone with write
 * access to the file would, and the failed audit they must produce.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { spawnArena } from './helpers.ts';

/**
 * The tools of one audit test file, around `<prefix>…/pristine.db`. `headMarker: false`: copies leave out the
 * marker that the head was sealed (`<key>.head`), as a database from before the head would have none.
 */
export function auditBench(prefix: string, o: { readonly headMarker?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const pristine = join(dir, 'pristine.db');
  let copies = 0;

  async function arena(args: string[]) {
    const r = await spawnArena(args, {}).done;
    expect(r.stderr, r.stderr).not.toMatch(/internal error|\n\s+at /);
    return r;
  }

  /** A copy of the played database (its key and its head marker too, unless told) with `sql` run on it directly. */
  function tampered(sql: string, t: { key?: boolean } = {}): string {
    const file = join(dir, `copy-${++copies}.db`);
    copyFileSync(pristine, file);
    if (t.key !== false) {
      copyFileSync(`${pristine}.key`, `${file}.key`);
      if (o.headMarker !== false && existsSync(`${pristine}.key.head`)) copyFileSync(`${pristine}.key.head`, `${file}.key.head`);
    }
    const db = new Database(file);
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
    return file;
  }

  /** Audits `file`, which must fail (exit 1) naming every line of `lines`. */
  async function failsWith(file: string, ...lines: RegExp[]) {
    const r = await arena(['audit', '--db', file]);
    expect(r.code, r.stdout).toBe(1);
    for (const l of lines) expect(r.stdout).toMatch(l);
    expect(r.stdout).toMatch(/^audit: FAILED, \d+ problem\(s\)$/m);
    return r;
  }

  return { dir, pristine, arena, tampered, failsWith };
}
