/**
 * Secrets handed to participants: tokens and web session ids. Each is 32 random bytes (256 bits) in base64url
 * behind a prefix that says what it is (`arena_` for a token, so a leaked one is recognisable to secret
 * scanners and to a reader). Only the sha256 of a secret is stored: a secret of 256 random bits cannot be
 * guessed or brute-forced from its hash, so a slow password hash (scrypt, argon2) would add cost and no
 * safety; and a stored hash is compared again in constant time (timingSafeEqual).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** What every participant token begins with. */
export const TOKEN_PREFIX = 'arena_';

/** Random bytes in every token and session id. */
const SECRET_BYTES = 32;

/** A token: the prefix and 43 base64url characters (32 bytes). */
const TOKEN_SHAPE = /^arena_[A-Za-z0-9_-]{43}$/;

/** A new participant token. */
export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
}

/** A new web session id (no prefix: it lives only in a cookie). */
export function newSessionId(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** Whether `text` has a token's shape (a cheap refusal before any lookup). */
export function looksLikeToken(text: string): boolean {
  return TOKEN_SHAPE.test(text);
}

/** Whether `text` has a session id's shape. */
export function looksLikeSessionId(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(text);
}

/** The stored form of a secret: its sha256, hex. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether two hex hashes are equal, in time independent of where they differ. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
