/**
 * The submissions' HTTP API (issue 32), for `arena submit`, curl and scripts; every route needs a
 * participant (a Bearer token, or the session cookie) and answers JSON, errors as `{"error": reason}`:
 *   POST /api/submissions          the raw archive as the body (.tar.gz, .tar or .zip, told by content) → 202
 *   GET  /api/submissions          the caller's own, newest first (`?participant=` someone else's: admins)
 *   GET  /api/submissions/:id      one submission (its owner and admins)
 *   GET  /api/submissions/:id/log  its build log, text/plain (its owner and admins)
 *   DELETE /api/bots/:owner/:bot   withdraws a submitted bot (its owner and admins); its results stay
 *   GET  /api/toolchains           the compilers and runtimes a build may use
 *   GET  /api/whoami               who the token belongs to (`arena login` checks a token with it)
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { Caller } from '../app/submissions/submissions.ts';
import { statusOfRefusal, type SubmissionServices } from './submission-services.ts';
import { receiveUpload, UPLOAD_MAX_BYTES } from './upload-body.ts';
// The type of the context's `participant` variable.
import type {} from './current-participant.ts';

/** The caller of a request, or undefined when nobody is signed in. */
export function callerOf(c: Context): Caller | undefined {
  const p = c.get('participant');
  return p ? { name: p.name, admin: p.admin } : undefined;
}

/** A 401 for an API call made without a participant. */
function unauthorized(c: Context): Response {
  c.header('WWW-Authenticate', 'Bearer');
  return c.json({ error: 'sign in first: send "Authorization: Bearer <token>" (arena user add prints a token)' }, 401);
}

/**
 * Adds the API's routes; `idParam` reads a path number as the other routes do (a 400 when bad), `gate` caps
 * the uploads received at once (upload-body.ts's uploadGate, shared with the upload form).
 */
export function addSubmissionApi(
  app: Hono,
  services: SubmissionServices,
  idParam: (text: string | undefined, what: string) => number,
  gate: MiddlewareHandler,
  maxBytes = UPLOAD_MAX_BYTES,
): void {
  const refused = (c: Context, r: { code: string; reason: string }) => c.json({ error: r.reason }, statusOfRefusal(r.code));

  app.get('/api/whoami', (c) => {
    const who = callerOf(c);
    return who ? c.json({ user: who.name, admin: who.admin }) : unauthorized(c);
  });

  app.get('/api/toolchains', async (c) => c.json(await services.toolchains()));

  // The name is `owner/bot`: raw or with its slash encoded, as every route that takes a bot name.
  app.delete('/api/bots/:name{.+}', async (c) => {
    const who = callerOf(c);
    if (!who) return unauthorized(c);
    const r = await services.withdrawBot(who, decodeURIComponent(c.req.param('name')));
    return r.ok ? c.json({ withdrawn: r.value.bot }) : refused(c, r);
  });

  app.post('/api/submissions', gate, async (c) => {
    const who = callerOf(c);
    if (!who) return unauthorized(c);
    const upload = await receiveUpload(c.req.raw.body, c.req.header('content-length'), maxBytes);
    if (!upload.ok) {
      // The over-long body has been read and dropped (or, far over, cut): the connection ends with the answer.
      if (upload.code === 'too-large') c.header('Connection', 'close');
      return refused(c, upload);
    }
    try {
      const r = await services.submitArchive(who, upload.value.file);
      if (!r.ok) return refused(c, r);
      c.header('Location', `/api/submissions/${r.value.id}`);
      return c.json({ submission: r.value.id, bot: r.value.bot, status: r.value.status }, 202);
    } finally {
      // The service has unpacked it into its own intake folder by the time it answers.
      upload.value.discard();
    }
  });

  app.get('/api/submissions', async (c) => {
    const who = callerOf(c);
    if (!who) return unauthorized(c);
    const r = await services.listSubmissions(who, c.req.query('participant') || undefined);
    return r.ok ? c.json(r.value) : refused(c, r);
  });

  app.get('/api/submissions/:id', async (c) => {
    const who = callerOf(c);
    if (!who) return unauthorized(c);
    const r = await services.submissionOf(who, idParam(c.req.param('id'), 'submission id'));
    return r.ok ? c.json(r.value) : refused(c, r);
  });

  app.get('/api/submissions/:id/log', async (c) => {
    const who = callerOf(c);
    if (!who) return unauthorized(c);
    const r = await services.buildLogOf(who, idParam(c.req.param('id'), 'submission id'));
    if (!r.ok) return refused(c, r);
    // A log is the build's output: shown as text, never interpreted by a browser that opens the URL.
    return c.text(r.value, 200, { 'Content-Type': 'text/plain; charset=utf-8' });
  });
}
