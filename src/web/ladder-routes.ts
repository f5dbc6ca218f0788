/**
 * The ladder's pages and their JSON twins: /ladder (reloading itself while the ladder runs) and
 * /ladder/bots/:name (a bot's versions, `?class=` for its rating chart in another class). Registered on the web app by server.ts.
 */
import type { Context, Hono } from 'hono';
import type { AppContext } from '../app/context.ts';
import { botVersions, ladderView } from '../app/ladder/ladder-status.ts';
import { isOwnedName } from '../app/bots/bot-owner.ts';
import { jsonValue } from '../app/records/json-text.ts';
import { versionHistory } from '../app/ladder/ladder-history.ts';
import { ladderBotPage, ladderPage, LADDER_REFRESH_SECONDS } from './pages/ladder.ts';

/**
 * A version as the public sees it: a participant's bot (`alice/astar`) shows no server path, no command
 * line and no check note (its owner reads those on their own page, /participants/:name), only its status.
 */
function publicVersion<V extends { readonly bot: string; readonly command: string; readonly folder?: string; readonly note?: string; readonly status: string }>(v: V): V {
  if (!isOwnedName(v.bot)) return v;
  const { folder: _folder, note: _note, ...rest } = v;
  return { ...rest, command: '(a participant\'s bot)', ...(v.status === 'failed' ? { note: 'failed its check (its owner sees why)' } : {}) } as V;
}

/** Adds the ladder's routes; `idParam` checks a query number as the other pages do (a 400 when bad). */
export function addLadderRoutes(app: Hono, ctx: AppContext, idParam: (text: string | undefined, what: string) => number, notFound: (c: Context, message: string) => Response): void {
  const before = (c: Context) => (c.req.query('before') ? idParam(c.req.query('before'), 'before') : undefined);
  const publicView = async (b: number | undefined) => {
    const view = await ladderView(ctx, b !== undefined ? { before: b } : {});
    return { ...view, versions: view.versions.map(publicVersion) };
  };
  const publicVersions = async (bot: string) => (await botVersions(ctx, bot)).map(publicVersion);
  app.get('/ladder', async (c) => {
    const b = before(c);
    const view = await publicView(b);
    if (view.activity?.state === 'running') c.header('Refresh', String(LADDER_REFRESH_SECONDS));
    return c.html(ladderPage(view, b));
  });
  app.get('/api/ladder', async (c) => {
    const b = before(c);
    return c.json(jsonValue(await publicView(b)));
  });
  app.get('/ladder/bots/:name{.+}', async (c) => {
    const versions = await publicVersions(c.req.param('name'));
    if (!versions.length) return notFound(c, `bot "${c.req.param('name')}" has no version on the ladder`);
    const cls = c.req.query('class') || undefined;
    return c.html(ladderBotPage(c.req.param('name'), versions, await versionHistory(ctx, c.req.param('name'), cls)));
  });
  app.get('/api/ladder/bots/:name{.+}', async (c) => {
    const versions = await publicVersions(c.req.param('name'));
    return versions.length ? c.json(jsonValue(versions)) : notFound(c, `bot "${c.req.param('name')}" has no version on the ladder`);
  });
}
