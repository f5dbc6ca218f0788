import { createServer as createHttpsServer } from 'node:https';
import { serve } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Result } from '../core/types.ts';
import { listBots } from '../app/bots/bot-registry.ts';
import { botProfile } from '../app/records/bot-profile.ts';
import type { AppContext } from '../app/context.ts';
import { distributedView } from '../app/matches/distributed.ts';
import { jsonValue } from '../app/records/json-text.ts';
import { leaderboard } from '../app/records/leaderboard.ts';
import { matchProgress, matchSprt, matchView } from '../app/records/match-view.ts';
import { showMatch, type ListMatchesOptions } from '../app/matches/matches.ts';
import { MATCH_STATUSES, type MatchStatus } from '../app/records/records.ts';
import { leaderboardView, ratingHistory } from '../app/records/rated-results.ts';
import { ReplayCache } from '../app/records/replay-seek.ts';
import { asset } from './assets.ts';
import { problemPage } from './layout.ts';
import { leaderboardPage } from './pages/leaderboard.ts';
import { botPage, botsPage } from './pages/bots.ts';
import { matchPage, scrambleRows } from './pages/match.ts';
import { matchesPage, type MatchFilter } from './pages/matches.ts';
import { replayPage } from './pages/replay.ts';
import { addLadderRoutes } from './ladder-routes.ts';
import { cachedListMatches } from '../app/records/match-list-cache.ts';
import { HTTPException } from 'hono/http-exception';
import { addAuth, type WebAuthOptions } from './auth.ts';
import { addSubmissionApi } from './submission-api.ts';
import { addSubmissionPages } from './submission-pages.ts';
import { addParticipantRoutes } from './participant-routes.ts';
import { submissionServices, type SubmissionServices } from './submission-services.ts';
import { dropUnreadBodies } from './refused-body.ts';
import { uploadGate } from './upload-body.ts';
import { botStderr, readableStderr, type BotStderrView } from '../app/records/bot-stderr.ts';
import { addStderrRoutes, stderrViewer } from './stderr-routes.ts';

/** Scripts, styles, images and requests only from this server; no inline script; no framing. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** How often the live view looks at the database for new results (another process may be writing). */
const LIVE_POLL_MS = 500;

class BadRequest extends Error {}

/** A path or query id: a non-negative integer below 2^31, else a 400. */
function idParam(text: string | undefined, what: string): number {
  if (text === undefined || !/^\d{1,10}$/.test(text) || Number(text) > 2 ** 31 - 1) throw new BadRequest(`${what} must be a whole number, got "${text ?? ''}"`);
  return Number(text);
}

/** The match list's filters from the query, checked as `arena matches` checks its flags. */
function matchFilter(c: Context): MatchFilter {
  const limitText = c.req.query('limit');
  const limit = limitText === undefined || limitText === '' ? 50 : idParam(limitText, 'limit');
  if (limit < 1 || limit > 1000) throw new BadRequest(`limit must be 1 to 1000, got ${limit}`);
  const status = c.req.query('status') || undefined;
  if (status !== undefined && !(MATCH_STATUSES as readonly string[]).includes(status)) {
    throw new BadRequest(`status must be one of ${MATCH_STATUSES.join(', ')}, got "${status}"`);
  }
  const text = (name: string) => {
    const v = c.req.query(name)?.trim();
    if (v !== undefined && v.length > 200) throw new BadRequest(`${name} is longer than 200 characters`);
    return v || undefined;
  };
  return { bot: text('bot'), puzzle: text('puzzle'), status: status as MatchStatus | undefined, limit };
}

/** The match list's service call: the store filters, as for `arena matches`. */
function listOptions(f: MatchFilter): ListMatchesOptions {
  return {
    limit: f.limit,
    ...(f.bot !== undefined ? { bot: f.bot } : {}),
    ...(f.puzzle !== undefined ? { puzzleClass: f.puzzle } : {}),
    ...(f.status !== undefined ? { status: f.status } : {}),
  };
}

/**
 * The web view over the application services (read-only but for the participants' submissions: submission-
 * api.ts and submission-pages.ts): every page has a JSON twin under /api returning
 * the documents the CLI's --json prints. Unknown ids are 404 pages, bad query values 400, and no error
 * shows a stack trace.
 */
export function createWebApp(
  ctx: AppContext,
  log: (line: string) => void = () => {},
  auth: WebAuthOptions = {},
  submissions: SubmissionServices = submissionServices(ctx),
): Hono {
  const app = new Hono();
  const replays = new ReplayCache();
  const wantsJson = (c: Context) => c.req.path.startsWith('/api/');

  // Outermost: a body no route read is dropped before any answer leaves (refused-body.ts).
  app.use('*', dropUnreadBodies());
  app.use('*', async (c, next) => {
    await next();
    c.header('Content-Security-Policy', CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
  });
  addAuth(app, ctx, auth);
  const privateServer = auth.private === true;

  const fail = (c: Context, status: 400 | 404, message: string) =>
    wantsJson(c) ? c.json({ error: message }, status) : c.html(problemPage(status === 404 ? 'Not found' : 'Bad request', message), status);
  const orNotFound = <T>(c: Context, r: Result<T>): T | Response => (r.ok ? r.value : fail(c, 404, r.reason));

  app.onError((err, c) => {
    if (err instanceof BadRequest) return fail(c, 400, err.message);
    // hono's own refusals (the csrf check's 403) carry their response.
    if (err instanceof HTTPException) return err.getResponse();
    // One line for the operator; the visitor gets no internals.
    log(`${c.req.method} ${c.req.path}: ${err.message}`);
    return wantsJson(c) ? c.json({ error: 'internal error' }, 500) : c.html(problemPage('Error', 'Something went wrong on the server.'), 500);
  });
  app.notFound((c) => fail(c, 404, `no page at ${c.req.path}`));

  const filteredMatches = (f: MatchFilter) => cachedListMatches(ctx, listOptions(f));

  app.get('/', async (c) => {
    const { boards, history } = await leaderboardView(ctx, c.req.query('class'));
    const chosen = history?.puzzleClass;
    if (chosen !== undefined && !boards.some((b) => b.puzzleClass === chosen)) return fail(c, 404, `no results in class "${chosen}"`);
    return c.html(leaderboardPage(boards, chosen, history));
  });
  app.get('/api/leaderboard', async (c) => c.json(await leaderboard(ctx, { puzzleClass: c.req.query('class') || undefined })));
  app.get('/api/leaderboard/history', async (c) => {
    const cls = c.req.query('class');
    if (!cls) throw new BadRequest('class is required');
    return c.json(await ratingHistory(ctx, cls));
  });

  app.get('/matches', async (c) => {
    const f = matchFilter(c);
    return c.html(matchesPage(await filteredMatches(f), f));
  });
  app.get('/api/matches', async (c) => c.json(await filteredMatches(matchFilter(c))));
  app.get('/matches/:id', async (c) => {
    const id = idParam(c.req.param('id'), 'match id');
    const v = orNotFound(c, await matchView(ctx, id));
    if (v instanceof Response) return v;
    const dist = orNotFound(c, await distributedView(ctx, id));
    if (dist instanceof Response) return dist;
    const stderr = await readableStderr(ctx, stderrViewer(c, privateServer), id);
    return c.html(matchPage(v.report, v.config, dist, v.sprt, v.settings, stderr));
  });
  app.get('/api/matches/:id/sprt', async (c) => {
    const t = orNotFound(c, await matchSprt(ctx, idParam(c.req.param('id'), 'match id')));
    return t instanceof Response ? t : c.json(t);
  });
  app.get('/api/matches/:id/workers', async (c) => {
    const dist = orNotFound(c, await distributedView(ctx, idParam(c.req.param('id'), 'match id')));
    return dist instanceof Response ? dist : c.json(dist ?? null);
  });
  app.get('/matches/:id/rows', async (c) => {
    const v = orNotFound(c, await showMatch(ctx, idParam(c.req.param('id'), 'match id')));
    return v instanceof Response ? v : c.html(scrambleRows(v).text);
  });
  app.get('/api/matches/:id', async (c) => {
    const v = orNotFound(c, await showMatch(ctx, idParam(c.req.param('id'), 'match id')));
    // The same JSON as `arena show --json`: an infinite Elo is "Infinity", not null.
    return v instanceof Response ? v : c.json(jsonValue(v));
  });
  app.get('/api/matches/:id/events', async (c) => {
    const id = idParam(c.req.param('id'), 'match id');
    const first = orNotFound(c, await matchProgress(ctx, id));
    if (first instanceof Response) return first;
    return streamSSE(c, async (stream) => {
      let last = '';
      while (!stream.aborted && !stream.closed) {
        const p = await matchProgress(ctx, id);
        if (!p.ok) break;
        const text = JSON.stringify(p.value);
        if (text !== last) {
          await stream.writeSSE({ event: 'progress', data: text });
          last = text;
        }
        if (p.value.status !== 'running') break;
        await stream.sleep(LIVE_POLL_MS);
      }
    });
  });

  const openReplay = async (c: Context, bot: string) =>
    replays.open(ctx, idParam(c.req.param('match'), 'match id'), idParam(c.req.param('scramble'), 'scramble number'), bot);
  app.get('/replay/:match/:scramble/:bot{.+}', async (c) => {
    const bots = [c.req.param('bot'), ...(c.req.query('vs') ? [c.req.query('vs')!] : [])];
    const infos = [];
    const stderr: BotStderrView[] = [];
    for (const b of bots) {
      const r = orNotFound(c, await openReplay(c, b));
      if (r instanceof Response) return r;
      infos.push(r.info);
      const text = await botStderr(ctx, stderrViewer(c, privateServer), r.info.match, b);
      if (text.ok) stderr.push(text.value);
    }
    return c.html(replayPage(infos, stderr));
  });
  app.get('/api/replay/:match/:scramble/:bot{.+}', async (c) => {
    const r = orNotFound(c, await openReplay(c, c.req.param('bot')));
    if (r instanceof Response) return r;
    const atText = c.req.query('at');
    const at = atText === undefined ? 0 : idParam(atText, 'at');
    return c.json({ ...r.info, ...(await r.seek(at)) });
  });

  app.get('/bots', async (c) => c.html(botsPage(await listBots(ctx))));
  app.get('/api/bots', async (c) => c.json(await listBots(ctx)));
  app.get('/bots/:name{.+}', async (c) => {
    const p = orNotFound(c, await botProfile(ctx, c.req.param('name')));
    return p instanceof Response ? p : c.html(botPage(p));
  });
  app.get('/api/bots/:name{.+}', async (c) => {
    const p = orNotFound(c, await botProfile(ctx, c.req.param('name')));
    return p instanceof Response ? p : c.json(p);
  });

  addLadderRoutes(app, ctx, idParam, (c, message) => fail(c, 404, message));
  // One cap on uploads received at once, whichever door they come through.
  const uploads = uploadGate(
    (c) => (wantsJson(c) ? c.json({ error: 'too many uploads at once: try again in a few seconds' }, 503) : c.html(problemPage('Busy', 'Too many uploads at once: try again in a few seconds.'), 503)),
    undefined,
    (c) => (wantsJson(c) ? c.json({ error: 'one upload at a time: your previous upload is still arriving' }, 429) : c.html(problemPage('Busy', 'One upload at a time: your previous upload is still arriving.'), 429)),
  );
  addSubmissionApi(app, submissions, idParam, uploads);
  addSubmissionPages(app, submissions, idParam, uploads);
  addParticipantRoutes(app, ctx, submissions);
  addStderrRoutes(app, ctx, privateServer, idParam);

  app.get('/static/:file', (c) => {
    const a = asset(c.req.param('file'));
    if (!a) return fail(c, 404, `no file ${c.req.param('file')}`);
    return c.body(new Uint8Array(a.body), 200, { 'Content-Type': a.type, 'Cache-Control': 'max-age=300' });
  });
  return app;
}

/** A running web server. */
export interface WebServer {
  readonly url: string;
  close(): Promise<void>;
}

/** A certificate and its private key (PEM files) for serving HTTPS. */
export interface TlsFiles {
  readonly cert: Buffer;
  readonly key: Buffer;
}

/** Serves the web view on host:port (port 0 = a free one), over HTTPS when `tls` is given. */
export function startWebServer(
  ctx: AppContext,
  o: { host: string; port: number; log?: (line: string) => void; auth?: WebAuthOptions; tls?: TlsFiles; submissions?: SubmissionServices },
): Promise<WebServer> {
  const app = createWebApp(ctx, o.log, o.auth, o.submissions ?? submissionServices(ctx));
  const secure = o.tls ? { createServer: createHttpsServer, serverOptions: { cert: o.tls.cert, key: o.tls.key } } : {};
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: o.host, port: o.port, ...secure }, (info) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `${o.tls ? 'https' : 'http'}://${host}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
    server.once('error', reject);
  });
}
