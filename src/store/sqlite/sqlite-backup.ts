/**
 * A consistent copy of a SQLite results database, safe while a match is writing to it: SQLite's online
 * backup reads the database and its write-ahead log together (a plain `cp` of the .db file alone misses
 * whatever is still in the -wal file and can give a malformed copy). The copy is one self-contained file.
 */
import Database from 'better-sqlite3';

/** Copies the database at `source` to the new file `dest`, then checks the copy; a one-line Error on failure. */
export async function backupSqlite(source: string, dest: string): Promise<void> {
  let db: Database.Database;
  try {
    db = new Database(source, { fileMustExist: true });
  } catch (e) {
    throw new Error((e as Error).message.split('\n')[0]);
  }
  try {
    await db.backup(dest);
    const copy = new Database(dest, { readonly: true });
    try {
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(`the copy failed its check: ${String(check)}`);
    } finally {
      copy.close();
    }
  } finally {
    db.close();
  }
}
