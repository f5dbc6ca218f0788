/**
 * Paths no bot may see, have in its folder, or have in its runtime: the project checkout, the database and
 * its folder, and the database's snapshot store (src/sandbox/snapshot/store.ts).
 */
import { dirname } from 'node:path';
import { snapshotStoreOf } from '../../sandbox/snapshot/store.ts';
import type { AppContext } from '../context.ts';

/** Paths no bot may see or have in its folder; see the module comment. */
export function guardedPaths(ctx: Pick<AppContext, 'projectRoot' | 'dbLocation'>): string[] {
  const out = [ctx.projectRoot];
  if (ctx.dbLocation.startsWith('/')) out.push(ctx.dbLocation, dirname(ctx.dbLocation));
  out.push(snapshotStoreOf(ctx.dbLocation));
  return out;
}
