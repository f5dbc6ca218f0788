import { openContext, type AppContext } from '../app/context.ts';
import { must } from './errors.ts';

/** Opens the results database (`--db`, else ARENA_DB, else leaderboard.db), runs `fn`, closes it. */
export async function withApp<T>(db: string | undefined, fn: (ctx: AppContext) => Promise<T>): Promise<T> {
  const ctx = must(await openContext(db ? { db } : {}));
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}
