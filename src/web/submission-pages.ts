/**
 * The submissions' web pages (issue 32): /submit (the upload form, signed in), /submissions/:id (a
 * submission's status, reloading until it is placed or failed, and its build log: owner and admins) and
 * /toolchains (a participant's page is participant-routes.ts). The form's POST passes the same cross-site
 * check as every form (auth.ts).
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { problemPage } from './layout.ts';
import { submissionPage, submitPage, SUBMISSION_REFRESH_SECONDS } from './pages/submit.ts';
import { toolchainsPage } from './pages/toolchains.ts';
import { callerOf } from './submission-api.ts';
import { isFinal, statusOfRefusal, type SubmissionServices } from './submission-services.ts';
import { capText, uploadOfBlob, UPLOAD_MAX_BYTES } from './upload-body.ts';

/** Room in a form's body beside the archive: the multipart boundaries and headers. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * Adds the pages; `idParam` reads a path number as the other routes do (a 400 when bad), `gate` caps the
 * uploads received at once (shared with the API).
 */
export function addSubmissionPages(
  app: Hono,
  services: SubmissionServices,
  idParam: (text: string | undefined, what: string) => number,
  gate: MiddlewareHandler,
  maxBytes = UPLOAD_MAX_BYTES,
): void {
  const form = (c: Context, problem: string, status: 400 | 403 | 404 | 413 | 429) => c.html(submitPage(capText(maxBytes), problem), status);
  const signInFirst = (c: Context) => c.redirect('/sign-in', 303);

  app.get('/submit', (c) => (callerOf(c) ? c.html(submitPage(capText(maxBytes))) : signInFirst(c)));

  app.post(
    '/submit',
    gate,
    bodyLimit({
      maxSize: maxBytes + FORM_OVERHEAD_BYTES,
      onError: (c) => {
        // The rest of the body is read and dropped before this page goes out (refused-body.ts's
        // dropUnreadBodies), so a browser still sending gets it, not a reset; then the connection ends.
        c.header('Connection', 'close');
        return form(c, `the archive is larger than ${capText(maxBytes)}`, 413);
      },
    }),
    async (c) => {
      const who = callerOf(c);
      if (!who) return signInFirst(c);
      const fields = await c.req.parseBody();
      const file = fields.archive;
      if (!(file instanceof File) || file.size === 0) return form(c, 'choose an archive (or a folder) to submit', 400);
      const upload = await uploadOfBlob(file, maxBytes);
      if (!upload.ok) return form(c, upload.reason, statusOfRefusal(upload.code));
      try {
        const r = await services.submitArchive(who, upload.value.file);
        return r.ok ? c.redirect(`/submissions/${r.value.id}`, 303) : form(c, r.reason, statusOfRefusal(r.code));
      } finally {
        upload.value.discard();
      }
    },
  );

  app.get('/submissions/:id', async (c) => {
    const who = callerOf(c);
    if (!who) return signInFirst(c);
    const id = idParam(c.req.param('id'), 'submission id');
    const s = await services.submissionOf(who, id);
    if (!s.ok) return c.html(problemPage(s.code === 'forbidden' ? 'Not yours' : 'Not found', s.reason), statusOfRefusal(s.code));
    const log = await services.buildLogOf(who, id);
    const final = isFinal(s.value.status);
    if (!final) c.header('Refresh', String(SUBMISSION_REFRESH_SECONDS));
    return c.html(submissionPage(s.value, log.ok ? log.value : undefined, final));
  });

  app.get('/toolchains', async (c) => c.html(toolchainsPage(await services.toolchains())));
}
