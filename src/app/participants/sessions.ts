/**
 * Web sessions: signing in with a token starts one (a random id for the cookie, only its hash stored, with
 * an expiry); the cookie's id finds its participant while neither has expired nor been revoked.
 */
import type { Result } from '../../core/types.ts';
import { ok } from '../../core/types.ts';
import type { ParticipantRecord } from '../../store/participant-types.ts';
import type { AppContext } from '../context.ts';
import { participantOfToken } from './participants.ts';
import { looksLikeSessionId, newSessionId, secretHash } from './tokens.ts';

/** How long a session lasts after sign-in: 7 days. */
export const SESSION_SECONDS = 7 * 24 * 3600;

/** A session just started: the id for the cookie (shown only now) and whose it is. */
export interface StartedSession {
  readonly id: string;
  readonly participant: ParticipantRecord;
  readonly maxAgeSeconds: number;
}

/** Signs in with a token: a new session, or the token's refusal. `now` is the wall clock (ms). */
export async function startSession(ctx: AppContext, token: string, now = Date.now()): Promise<Result<StartedSession>> {
  const who = await participantOfToken(ctx, token);
  if (!who.ok) return who;
  const id = newSessionId();
  const expiresAt = new Date(now + SESSION_SECONDS * 1000).toISOString();
  await ctx.store.participants().addSession({ idHash: secretHash(id), participant: who.value.name, expiresAt }, new Date(now).toISOString());
  return ok({ id, participant: who.value, maxAgeSeconds: SESSION_SECONDS });
}

/** The participant of a live session id, or undefined (unknown, expired, revoked or malformed). */
export async function sessionParticipant(ctx: AppContext, id: string, now = Date.now()): Promise<ParticipantRecord | undefined> {
  if (!looksLikeSessionId(id)) return undefined;
  return ctx.store.participants().session(secretHash(id), new Date(now).toISOString());
}

/** Ends a session (signing out); nothing happens for an unknown id. */
export async function endSession(ctx: AppContext, id: string): Promise<void> {
  if (looksLikeSessionId(id)) await ctx.store.participants().removeSession(secretHash(id));
}
