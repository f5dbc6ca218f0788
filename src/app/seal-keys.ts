/**
 * The key that seals a database (src/store/seal.ts), kept outside the database, readable by the arena's own
 * user only (a file of mode 0600):
 * - a SQLite database `results.db` has its key beside it, `results.db.key` (the .db alone, copied or sent,
 *   carries no key; a bot in the sandbox sees neither);
 * - a PostgreSQL database has no file to sit beside: its key is `<id>.key` in the user's key folder
 *   ($ARENA_KEY_DIR, else $XDG_CONFIG_HOME/puzzle-arena/keys, else ~/.config/puzzle-arena/keys), named by
 *   the database's random id; every worker machine needs a copy to seal what it writes.
 * A database gets its key from the first process that opens it to write and finds none (the key is made
 * then, and the database records its check, never the key). A process that finds a key recorded but no file
 * writes unsealed, and `arena audit` there says integrity cannot be checked.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isPgUrl } from '../store/open.ts';
import { keyCheck, type SealKey } from '../store/seal.ts';
import type { SealMeta, Store } from '../store/types.ts';

/** Environment variable naming the folder of PostgreSQL databases' keys. */
export const ENV_KEY_DIR = 'ARENA_KEY_DIR';

/** Where this process stands with a database's seals. */
export type Sealing =
  /** What this process writes is sealed with the key in `keyFile`; `created` when it was made just now. */
  | { readonly state: 'on'; readonly keyFile: string; readonly created: boolean }
  /** The database has a key, but this machine has no (readable) key file. */
  | { readonly state: 'no-key'; readonly keyFile: string; readonly reason: string }
  /** The key file found is not the database's key. */
  | { readonly state: 'wrong-key'; readonly keyFile: string }
  /** The database has no key (an older arena wrote it, or nothing that writes opened it yet), or cannot have one. */
  | { readonly state: 'unsealed'; readonly reason: string };

/** The folder of PostgreSQL databases' keys. */
export function keyFolder(env: NodeJS.ProcessEnv = process.env): string {
  const own = env[ENV_KEY_DIR];
  if (own && own.trim() !== '') return path.resolve(own);
  const config = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.trim() !== '' ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(config, 'puzzle-arena', 'keys');
}

/** The key file of the database at `location` (a path or a postgres URL) whose id is `dbId`; none in memory. */
export function keyFileFor(location: string, dbId: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (location === ':memory:') return undefined;
  if (isPgUrl(location)) return path.join(keyFolder(env), `${dbId.replace(/[^0-9a-zA-Z_-]/g, '_')}.key`);
  return `${location}.key`;
}

/** Reads a key file: 64 hex digits. A one-line reason when it cannot. */
export function readKeyFile(file: string): { ok: true; key: Uint8Array } | { ok: false; missing: boolean; reason: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, missing: code === 'ENOENT', reason: code === 'ENOENT' ? `no key file ${file}` : `cannot read key file ${file} (${code ?? (e as Error).message})` };
  }
  const hex = text.trim();
  if (!/^[0-9a-f]{64}$/i.test(hex)) return { ok: false, missing: false, reason: `key file ${file} does not hold a key (64 hex digits)` };
  return { ok: true, key: Buffer.from(hex, 'hex') };
}

/** True when a key file can be read by users other than its owner. */
export function keyFileExposed(file: string): boolean {
  try {
    return (fs.statSync(file).mode & 0o077) !== 0;
  } catch {
    return false;
  }
}

/** Makes a new key file (mode 0600, its folder made 0700 when missing); the existing key when one raced us. */
function createKeyFile(file: string): { key: Uint8Array; wrote: boolean } {
  const dir = path.dirname(file);
  if (!fs.existsSync(dir)) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  try {
    const fd = fs.openSync(file, 'wx', 0o600);
    try {
      fs.writeSync(fd, `${key.toString('hex')}\n`);
    } finally {
      fs.closeSync(fd);
    }
    return { key, wrote: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const got = readKeyFile(file);
    if (!got.ok) throw new Error(got.reason);
    return { key: got.key, wrote: false };
  }
}

/** The file beside a key that says its database's head has been sealed (see setUpSealing). */
export function headMarkerFor(keyFile: string): string {
  return `${keyFile}.head`;
}

/**
 * Writes the head marker (mode 0600) naming the database whose head is sealed, unless it names it already;
 * a marker that cannot be written only loses that protection.
 */
function writeHeadMarker(marker: string, dbId: string): void {
  try {
    if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').trim() === dbId) return;
    fs.writeFileSync(marker, `${dbId}\n`, { mode: 0o600 });
  } catch {
    // A read-only folder or a race with another process: the head itself is sealed either way.
  }
}

/** How the commands that record results (a match, a worker) open a database: giving it a key if it has none. */
export const RECORDS = { seal: { claim: true } } as const;

/** How {@link setUpSealing} may act. */
export interface SealingOptions {
  /** Give the database a key when it has none (processes that write); `arena audit` only reads. */
  readonly claim: boolean;
  /** A key file to use instead of the one the location names (`arena audit --key`). */
  readonly keyFile?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Finds (or, with `claim`, makes) the key of the database `store` opened at `location`, and when it is the
 * database's own, tells the store to seal what it writes. Never throws for a missing or foreign key: that is
 * a state, reported to the user by the command.
 */
export async function setUpSealing(store: Store, location: string, o: SealingOptions): Promise<{ sealing: Sealing; key?: SealKey; meta: SealMeta }> {
  let meta = await store.sealMeta();
  const file = o.keyFile ?? keyFileFor(location, meta.dbId, o.env);
  if (file === undefined) return { sealing: { state: 'unsealed', reason: 'an in-memory database keeps no key' }, meta };
  let made: { key: Uint8Array; wrote: boolean } | undefined;
  const marker = headMarkerFor(file);
  if (meta.keyCheck === undefined) {
    if (!o.claim) return { sealing: { state: 'unsealed', reason: 'the database has no key (written by an older arena, or by nothing that records results yet)' }, meta };
    // A database that lost its record of a key while its key and head marker are here, and holds matches:
    // giving it the key again would vouch for whatever it holds now (every row would predate the new claim).
    if (fs.existsSync(marker) && (await store.listMatches(1)).length > 0) {
      return { sealing: { state: 'no-key', keyFile: file, reason: `the database holds matches but no record of its key, though its key and ${marker} are here: the record was removed (arena audit says so); it is not given the key again` }, meta };
    }
    try {
      made = createKeyFile(file);
    } catch (e) {
      return { sealing: { state: 'unsealed', reason: `cannot make key file ${file}: ${(e as Error).message.split('\n')[0]}` }, meta };
    }
    meta = await store.claimSealKey(keyCheck(made.key));
  }
  const got = made ? { ok: true as const, key: made.key } : readKeyFile(file);
  if (!got.ok) return { sealing: { state: 'no-key', keyFile: file, reason: got.reason }, meta };
  if (keyCheck(got.key) !== meta.keyCheck) {
    // Another process claimed the database first with its own key: ours is of no use, and only confuses.
    if (made?.wrote) fs.rmSync(file, { force: true });
    return { sealing: made ? { state: 'no-key', keyFile: file, reason: 'another process gave the database its key first' } : { state: 'wrong-key', keyFile: file }, meta };
  }
  const key: SealKey = { key: got.key, dbId: meta.dbId };
  store.sealWith(key);
  // A key claimed just now, or an older database just migrated, gets its head sealed (once: a head whose
  // seal was removed afterwards is left for the audit to report). The marker beside the key remembers that
  // the head was sealed, so a database taken back to the schema before the head (its head dropped) is not
  // sealed afresh over a forged watermark.
  // A key claimed just now is a new database's (one that lost its record is refused above): its head is
  // sealed whatever marker an earlier database at this place left.
  if (meta.headSeal === undefined && (made !== undefined || !fs.existsSync(marker)) && (await store.sealHead(key))) meta = await store.sealMeta();
  if (meta.headSeal !== undefined) writeHeadMarker(marker, meta.dbId);
  return { sealing: { state: 'on', keyFile: file, created: made !== undefined }, key, meta };
}

/**
 * What a process that records results should tell its user about sealing before it starts, in one line,
 * or nothing: results that will go unsealed, and why.
 */
export function sealingWarning(ctx: { readonly sealing?: Sealing }): string | undefined {
  const s = ctx.sealing;
  if (!s || s.state === 'on') return undefined;
  const unsealed = 'results recorded here are not sealed, so arena audit cannot check their times and verdicts';
  if (s.state === 'no-key') return `warning: ${unsealed}: ${s.reason} (copy the database's key file here)`;
  if (s.state === 'wrong-key') return `warning: ${unsealed}: ${s.keyFile} is not this database's key`;
  return s.reason.startsWith('cannot make key file') ? `warning: ${unsealed}: ${s.reason}` : undefined;
}

/**
 * Where this process made the database's key, in one line, or nothing: said once the command has done
 * its work (a refused command stays one line), for a PostgreSQL database with the copy the workers need.
 */
export function keyMadeNotice(ctx: { readonly sealing?: Sealing; readonly location?: string }): string | undefined {
  const s = ctx.sealing;
  if (!s || s.state !== 'on' || !s.created) return undefined;
  // Every command that writes a file says where: the key is a file the user must keep (and back up).
  return ctx.location !== undefined && isPgUrl(ctx.location)
    ? `made the database's audit key ${s.keyFile}: keep it private, and copy it into the key folder (${ENV_KEY_DIR}, default ~/.config/puzzle-arena/keys) of every worker machine so their results are sealed too`
    : `made the database's audit key ${s.keyFile}: keep it private; arena audit needs it to check this database's seals`;
}

/** Both sealing lines of a long-running command (the ladder, a worker), said as it starts. */
export function sealingNotice(ctx: { readonly sealing?: Sealing; readonly location?: string }): string | undefined {
  return sealingWarning(ctx) ?? keyMadeNotice(ctx);
}

/**
 * The key file in the key folder whose key has `check`, for a PostgreSQL database whose id no longer names
 * its file (an id edited to hide the database from its key: its seals then fail loudly instead).
 */
export function findKeyByCheck(check: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = keyFolder(env);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.key'));
  } catch {
    return undefined;
  }
  for (const n of names) {
    const file = path.join(dir, n);
    const got = readKeyFile(file);
    if (got.ok && keyCheck(got.key) === check) return file;
  }
  return undefined;
}
