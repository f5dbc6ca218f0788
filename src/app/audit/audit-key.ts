/**
 * Which key `arena audit` checks seals with, and what it can say without one. Missing keys are the normal
 * case away from the machine that wrote the database (a copy, an old database): the audit then says plainly
 * that times and verdicts cannot be checked and checks everything else. A key file that is not the
 * database's is a problem: it belongs to another database, or the database's record of its key was changed.
 */
import fs from 'node:fs';
import { isPgUrl } from '../../store/open.ts';
import { keyCheck, type SealKey } from '../../store/seal.ts';
import type { SealMeta } from '../../store/types.ts';
import type { AppContext } from '../context.ts';
import { findKeyByCheck, keyFileExposed, keyFileFor, readKeyFile } from '../seal-keys.ts';

/** How far the seals could be checked. */
export interface Integrity {
  /** True when every seal was checked with the database's own key. */
  readonly checked: boolean;
  /** The key file used or looked for. */
  readonly keyFile?: string;
  /** One line for people: checked with which file, or why not. */
  readonly text: string;
  /** Set when the key found is not the database's, or its record is missing: reported as a problem. */
  readonly problem?: string;
  /**
   * Set when the database has a key but this audit has none: the seals went unchecked, so the audit is
   * incomplete (never "holds"), unless the replay checks alone were asked for (`--no-key`).
   */
  readonly missingKey?: string;
}

/** The database's key for an audit, from `keyFile` or the file its location names; none with `noKey`. */
export async function auditKey(ctx: AppContext, keyFile?: string, noKey = false): Promise<{ integrity: Integrity; key?: SealKey; meta: SealMeta }> {
  const meta = await ctx.store.sealMeta();
  if (noKey) return { meta, integrity: { checked: false, text: 'seals not checked (--no-key): the replay checks alone, which cannot see changed times, verdicts without moves, or rows deleted or inserted' } };
  let file = keyFile ?? (ctx.location !== undefined ? keyFileFor(ctx.location, meta.dbId) : undefined);
  // A PostgreSQL key is found by its id's name, else by its check among the user's keys.
  if (keyFile === undefined && file !== undefined && ctx.location !== undefined && isPgUrl(ctx.location) && meta.keyCheck !== undefined && !fs.existsSync(file)) {
    file = findKeyByCheck(meta.keyCheck) ?? file;
  }
  const at = file !== undefined ? { keyFile: file } : {};
  const got = file !== undefined ? readKeyFile(file) : undefined;
  if (meta.keyCheck === undefined) return { meta, integrity: keylessDatabase(meta, file, got?.ok === true) };
  if (file === undefined) return { meta, integrity: { checked: false, text: 'no key: integrity of times/verdicts not checkable (an in-memory database keeps no key file)' } };
  if (!got!.ok) {
    const why = got!.missing ? `no key file ${file}: the key stays with the machine that wrote the database` : got!.reason;
    return { meta, integrity: { checked: false, ...at, text: `no key: integrity of times/verdicts not checked (${why})`, missingKey: file } };
  }
  if (keyCheck(got!.key) !== meta.keyCheck) {
    const problem = `the key in ${file} is not this database's key, so integrity cannot be checked: the file belongs to another database, or the database's record of its key was changed`;
    return { meta, integrity: { checked: false, ...at, text: 'wrong key: integrity of times/verdicts not checked', problem } };
  }
  const exposed = keyFileExposed(file) ? ` (warning: other users can read ${file}; chmod 600 it)` : '';
  return { meta, key: { key: got!.key, dbId: meta.dbId }, integrity: { checked: true, ...at, text: `integrity: every seal checked with the key in ${file}${exposed}` } };
}

/**
 * A database with no record of a key: one an older arena wrote (nothing to check), unless something says it
 * had one: a key file where its key would be, or seals of its own bookkeeping. Then the record was removed.
 */
function keylessDatabase(meta: SealMeta, file: string | undefined, keyFound: boolean): Integrity {
  const at = file !== undefined ? { keyFile: file } : {};
  const text = 'no key: integrity of times/verdicts not checkable (the database has no record of a key)';
  if (keyFound) return { checked: false, ...at, text, problem: `the database has no record of its key, but ${file} holds one: the record (seal_meta.key_check) was removed` };
  if (meta.sealedMatches > 0 || meta.matchesSeal !== undefined || meta.headSeal !== undefined || meta.preKey !== undefined || meta.sealedAfter !== undefined) {
    return { checked: false, ...at, text, problem: 'the database has no record of its key, yet it holds seals: the record (seal_meta.key_check) was removed' };
  }
  return { checked: false, ...at, text: 'no key: integrity of times/verdicts not checkable (the database never had a key: written by an older arena)' };
}
