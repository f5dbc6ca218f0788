/**
 * A participant's page and its JSON twin (issue 32): /participants/:name and /api/participants/:name, from
 * participantBots. Public: their bots, each version's number, status, games and ratings. Their owner and
 * admins also get each version's submission and build log and the list of their submissions.
 */
import type { Hono } from 'hono';
import type { AppContext } from '../app/context.ts';
import { participantBots, type Caller, type ParticipantBot, type SubmissionView } from '../app/submissions/submissions.ts';
import { ok, type Result } from '../core/types.ts';
import { problemPage } from './layout.ts';
import { participantPage } from './pages/participant.ts';
import { callerOf } from './submission-api.ts';
import type { SubmissionServices } from './submission-services.ts';

/** What `who` may see of participant `name`: their bots, and their submissions when `who` is them or an admin. */
async function participantView(
  ctx: AppContext,
  services: SubmissionServices,
  who: Caller | undefined,
  name: string,
): Promise<Result<{ name: string; bots: ParticipantBot[]; submissions?: SubmissionView[] }>> {
  const bots = await participantBots(ctx, who, name);
  if (!bots.ok) return bots;
  const mine = who !== undefined && (who.admin || who.name === name);
  const list = mine ? await services.listSubmissions(who, name) : undefined;
  return ok({ name, bots: bots.value, ...(list?.ok ? { submissions: list.value } : {}) });
}

/** Adds /participants/:name and /api/participants/:name. */
export function addParticipantRoutes(app: Hono, ctx: AppContext, services: SubmissionServices): void {
  app.get('/participants/:name', async (c) => {
    const v = await participantView(ctx, services, callerOf(c), c.req.param('name'));
    if (!v.ok) return c.html(problemPage('Not found', v.reason), 404);
    return c.html(participantPage(v.value.name, v.value.bots, v.value.submissions));
  });
  app.get('/api/participants/:name', async (c) => {
    const v = await participantView(ctx, services, callerOf(c), c.req.param('name'));
    return v.ok ? c.json(v.value) : c.json({ error: v.reason }, 404);
  });
}
