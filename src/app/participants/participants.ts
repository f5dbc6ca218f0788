/**
 * The participant services: add one (its token returned once, only its hash kept), list them, revoke one,
 * and find who holds a token. Typed options in, Result values out; the CLI's `arena user` and the web's
 * authentication both come through here.
 */
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { checkBotName, lookAlike } from '../../intake/bot-name.ts';
import type { ParticipantRecord } from '../../store/participant-types.ts';
import type { AppContext } from '../context.ts';
import { looksLikeToken, newToken, sameHash, secretHash } from './tokens.ts';

export type { ParticipantRecord } from '../../store/participant-types.ts';

/** A participant just added, with the token shown only now. */
export interface AddedParticipant {
  readonly user: string;
  readonly token: string;
  readonly admin: boolean;
}

/**
 * Adds a participant named by the bot-name rules (a participant's name prefixes their bots' names, `alice/
 * astar`), refusing a name taken or a look-alike of one taken (`Alice`, `a1ice`).
 */
export async function addParticipant(ctx: AppContext, o: { name: string; admin: boolean }): Promise<Result<AddedParticipant>> {
  const named = checkBotName(o.name);
  if (!named.ok) return reject('bad-name', named.reason.replace(/\bbot name\b/g, 'participant name'));
  const taken = (await ctx.store.participants().list()).map((p) => p.name);
  const like = lookAlike(o.name, taken);
  if (like === o.name) return reject('exists', `participant "${o.name}" already exists`);
  if (like !== undefined) return reject('exists', `participant name "${o.name}" looks like "${like}", which exists`);
  const token = newToken();
  if (!(await ctx.store.participants().add({ name: o.name, admin: o.admin, tokenHash: secretHash(token) }))) {
    return reject('exists', `participant "${o.name}" already exists`);
  }
  return ok({ user: o.name, token, admin: o.admin });
}

/** Every participant, by name; never a token or its hash. */
export function listParticipants(ctx: AppContext): Promise<ParticipantRecord[]> {
  return ctx.store.participants().list();
}

/** Revokes a participant: their token and every session of theirs stop working at once. */
export async function revokeParticipant(ctx: AppContext, name: string): Promise<Result<ParticipantRecord>> {
  const store = ctx.store.participants();
  const found = (await store.list()).find((p) => p.name === name);
  if (!found) return reject('not-found', `no participant "${name}"`);
  if (found.revokedAt !== undefined) return reject('revoked', `participant "${name}" was revoked at ${found.revokedAt}`);
  const at = new Date().toISOString();
  if (!(await store.revoke(name, at))) return reject('revoked', `participant "${name}" was revoked meanwhile`);
  return ok({ ...found, revokedAt: at });
}

/** The participant holding `token`: refused when it is malformed, unknown or revoked (one message for all). */
export async function participantOfToken(ctx: AppContext, token: string): Promise<Result<ParticipantRecord>> {
  const refused = reject('bad-token', 'the token is wrong or revoked');
  if (!looksLikeToken(token)) return refused;
  const hash = secretHash(token);
  const found = await ctx.store.participants().byTokenHash(hash);
  // The lookup found the row by its hash; comparing again in constant time keeps the decision itself free of
  // a timing signal whatever index the store used.
  if (!found || !sameHash(found.tokenHash, hash) || found.revokedAt !== undefined) return refused;
  const { tokenHash: _hash, ...participant } = found;
  return ok(participant);
}
