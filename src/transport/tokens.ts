/**
 * Bot tokens. A registered remote bot keeps a long-lived token; the database stores only its sha256 hash,
 * so a leaked database does not let anyone impersonate a bot. Spawned bots get a one-time token per process.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A fresh random token: 32 bytes as 64 hex characters (URL- and header-safe). */
export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** sha256 of the token, lowercase hex: what the store keeps and compares. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
