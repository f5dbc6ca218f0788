/**
 * The API of a bot's stderr of a match, `GET /api/matches/:id/stderr/:bot` (a bot name may hold a '/',
 * raw or as %2F): 401 when nobody is signed in and someone must be, 403 for a participant who is neither
 * the bot's owner nor an admin, 404 for an unknown match or a bot not in it.
 */
import type { Context, Hono } from 'hono';
import { botStderr, type StderrViewer } from '../app/records/bot-stderr.ts';
import type { AppContext } from '../app/context.ts';

/** Who asks, as the stderr rule sees them: the request's participant, or nobody on this server. */
export function stderrViewer(c: Context, privateServer: boolean): StderrViewer {
  const participant = c.get('participant');
  return participant ? { kind: 'participant', participant } : { kind: 'anonymous', privateServer };
}

const STATUS: Readonly<Record<string, 401 | 403 | 404>> = { unauthenticated: 401, forbidden: 403 };

/** Adds the stderr API to `app`. */
export function addStderrRoutes(app: Hono, ctx: AppContext, privateServer: boolean, idParam: (text: string | undefined, what: string) => number): void {
  app.get('/api/matches/:id/stderr/:bot{.+}', async (c) => {
    const got = await botStderr(ctx, stderrViewer(c, privateServer), idParam(c.req.param('id'), 'match id'), c.req.param('bot'));
    if (got.ok) return c.json(got.value);
    const status = STATUS[got.code] ?? 404;
    if (status === 401) c.header('WWW-Authenticate', 'Bearer');
    return c.json({ error: got.reason }, status);
  });
}
