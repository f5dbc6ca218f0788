/**
 * Which key `arena audit` checks seals with, and what it can say without one. Missing keys are the normal
 * case away from the machine that wrote the database (a copy, an old database): the audit then says plainly
 * that times and verdicts cannot be checked and checks everything else. A key file that is not the
 * database's is a problem: it belongs to another database, or the database's record of its key was changed.
 */
import fs from 'node:fs';
import { isPgUrl } from '../store/open.ts';
import { keyCheck, type SealKey } from '../store/seal.ts';
import type { SealMeta } from '../store/types.ts';
import type { AppContext } from './context.ts';
import { findKeyByCheck, keyFileExposed, keyFileFor, readKeyFile } from './seal-keys.ts';

/** How far the seals could be checked. */
export interface Integrity {
  /** True when every seal was checked with the database's own key. */
  readonly checked: boolean;
  /** The key file used or looked for. */
  readonly keyFile?: string;
  /** One line for people: checked with which file, or why not. */
  readonly text: string;
  /** Set when the key found is not the database's: reported as a problem. */
  readonly problem?: string;
}

/** The database's key for an audit, from `keyFile` or the file its location names. */
export async function auditKey(ctx: AppContext, keyFile?: string): Promise<{ integrity: Integrity; key?: SealKey; meta: SealMeta }> {
  const meta = await ctx.store.sealMeta();
  let file = keyFile ?? (ctx.location !== undefined ? keyFileFor(ctx.location, meta.dbId) : undefined);
  // A PostgreSQL key is found by its id's name, else by its check among the user's keys.
  if (keyFile === undefined && file !== undefined && ctx.location !== undefined && isPgUrl(ctx.location) && meta.keyCheck !== undefined && !fs.existsSync(file)) {
    file = findKeyByCheck(meta.keyCheck) ?? file;
  }
  const at = file !== undefined ? { keyFile: file } : {};
  if (meta.keyCheck === undefined) {
    return { meta, integrity: { checked: false, ...at, text: 'no key: integrity of times/verdicts not checkable (the database never had a key: written by an older arena)' } };
  }
  if (file === undefined) return { meta, integrity: { checked: false, text: 'no key: integrity of times/verdicts not checkable (an in-memory database keeps no key file)' } };
  const got = readKeyFile(file);
  if (!got.ok) {
    const why = got.missing ? `no key file ${file}: the key stays with the machine that wrote the database` : got.reason;
    return { meta, integrity: { checked: false, ...at, text: `no key: integrity of times/verdicts not checkable (${why})` } };
  }
  if (keyCheck(got.key) !== meta.keyCheck) {
    const problem = `the key in ${file} is not this database's key, so integrity cannot be checked: the file belongs to another database, or the database's record of its key was changed`;
    return { meta, integrity: { checked: false, ...at, text: 'wrong key: integrity of times/verdicts not checked', problem } };
  }
  const exposed = keyFileExposed(file) ? ` (warning: other users can read ${file}; chmod 600 it)` : '';
  return { meta, key: { key: got.key, dbId: meta.dbId }, integrity: { checked: true, ...at, text: `integrity: every seal checked with the key in ${file}${exposed}` } };
}
