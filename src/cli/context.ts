import { openContext, type AppContext, type OpenOptions } from '../app/context.ts';
import { must } from './errors.ts';

/** Opens the results database (`--db`, else ARENA_DB, else leaderboard.db), runs `fn`, closes it. */
export async function withApp<T>(db: string | undefined, fn: (ctx: AppContext) => Promise<T>, open: Omit<OpenOptions, 'db'> = {}): Promise<T> {
  const ctx = must(await openContext(db ? { ...open, db } : open));
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}
