/**
 * Who is asking: a participant's token (`Authorization: Bearer …`, for the API and scripts) or the session
 * cookie the sign-in page sets. Adds the sign-in and sign-out routes, cross-site form protection (hono's
 * csrf: a POST's Origin must be this server's), the per-address limit on failed sign-ins, and, for
 * `arena serve --private`, the rule that only the sign-in page and static files are open to strangers.
 */
import type { Hono, Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { contextStorage } from 'hono/context-storage';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { csrf } from 'hono/csrf';
import { reject } from '../core/types.ts';
import type { AppContext } from '../app/context.ts';
import { participantOfToken } from '../app/participants/participants.ts';
// The type of the context's `participant` variable (a module augmentation of hono's).
import type {} from './current-participant.ts';
import { endSession, sessionParticipant, startSession } from '../app/participants/sessions.ts';
import { signInPage } from './pages/sign-in.ts';
import { clientAddress, overTls, publicOrigin } from './request-origin.ts';
import { SignInLimiter } from './sign-in-limit.ts';

/** How `arena serve` treats visitors. */
export interface WebAuthOptions {
  /** Everything but the sign-in page and static files needs a participant (`--private`). */
  readonly private?: boolean;
  /** A reverse proxy sets X-Forwarded-For/-Proto/-Host, and they are believed (`--trust-proxy`). */
  readonly trustProxy?: boolean;
}

/** The session cookie's name. */
export const SESSION_COOKIE = 'arena_session';

const isApi = (path: string) => path === '/api' || path.startsWith('/api/');
const isOpen = (path: string) => path === '/sign-in' || path.startsWith('/static/');

/** Adds authentication, sign-in and sign-out to `app`; call before any route. */
export function addAuth(app: Hono, ctx: AppContext, o: WebAuthOptions = {}): void {
  const trust = Boolean(o.trustProxy);
  const limiter = new SignInLimiter();
  const tooMany = (c: Context, seconds: number) => {
    c.header('Retry-After', String(seconds));
    const message = `too many failed sign-ins from your address; try again in ${seconds} s`;
    return isApi(c.req.path) ? c.json({ error: message }, 429) : c.html(signInPage(undefined, message), 429);
  };

  app.use('*', contextStorage());
  // A form posted from another site is refused (403): its Origin (or Sec-Fetch-Site) must say it is ours.
  // The check guards what the cookie authorises. A request carrying an Authorization header is authenticated
  // by that header alone, never by the cookie, and no page can make a browser add one; an API call with
  // neither has no one's authority to borrow (it gets its 401). So curl's `--data-binary` upload to
  // /api/submissions, which sends no Origin, is not mistaken for a cross-site form.
  const sameOrigin = csrf({ origin: (origin, c) => origin === publicOrigin(c, trust) });
  const borrowsNothing = (c: Context) =>
    c.req.header('authorization') !== undefined || (isApi(c.req.path) && getCookie(c, SESSION_COOKIE) === undefined);
  app.use('*', (c, next) => (borrowsNothing(c) ? next() : sameOrigin(c, next)));

  app.use('*', async (c, next) => {
    const header = c.req.header('authorization');
    if (header !== undefined) {
      const address = clientAddress(c, trust);
      const wait = limiter.retryAfter(address);
      if (wait !== undefined) return tooMany(c, wait);
      const token = /^Bearer +(\S+) *$/i.exec(header)?.[1];
      const who = token === undefined ? reject('bad-header', 'the Authorization header must be "Bearer <token>"') : await participantOfToken(ctx, token);
      if (!who.ok) {
        limiter.fail(address);
        c.header('WWW-Authenticate', 'Bearer error="invalid_token"');
        return c.json({ error: who.reason }, 401);
      }
      c.set('participant', who.value);
    } else {
      const id = getCookie(c, SESSION_COOKIE);
      if (id !== undefined) {
        const who = await sessionParticipant(ctx, id);
        if (who) c.set('participant', who);
        else deleteCookie(c, SESSION_COOKIE, { path: '/' });
      }
    }
    if (o.private && c.get('participant') === undefined && !isOpen(c.req.path)) {
      if (!isApi(c.req.path)) return c.redirect('/sign-in', 303);
      c.header('WWW-Authenticate', 'Bearer');
      return c.json({ error: 'this arena is private: send "Authorization: Bearer <token>"' }, 401);
    }
    await next();
  });

  app.get('/sign-in', (c) => c.html(signInPage(c.get('participant'))));
  app.post('/sign-in', bodyLimit({ maxSize: 4096, onError: (c) => c.html(signInPage(undefined, 'the form is too large'), 413) }), async (c) => {
    const address = clientAddress(c, trust);
    const wait = limiter.retryAfter(address);
    if (wait !== undefined) return tooMany(c, wait);
    const body = await c.req.parseBody();
    const token = typeof body.token === 'string' ? body.token.trim() : '';
    const session = await startSession(ctx, token);
    if (!session.ok) {
      limiter.fail(address);
      return c.html(signInPage(undefined, 'That token is wrong or has been revoked.'), 401);
    }
    setCookie(c, SESSION_COOKIE, session.value.id, {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      secure: overTls(c, trust),
      maxAge: session.value.maxAgeSeconds,
    });
    return c.redirect('/', 303);
  });
  app.post('/sign-out', async (c) => {
    const id = getCookie(c, SESSION_COOKIE);
    if (id !== undefined) await endSession(ctx, id);
    deleteCookie(c, SESSION_COOKIE, { path: '/', secure: overTls(c, trust), httpOnly: true, sameSite: 'Lax' });
    return c.redirect('/sign-in', 303);
  });
}
