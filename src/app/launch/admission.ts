import { hashToken } from '../../transport/tokens.ts';
import type { ResolvedBot } from '../bots/bot-registry.ts';

/**
 * The authenticate function of a referee's WebSocket server: it admits the registered remote bots among
 * `bots` (the bots of the running match) by their long-lived tokens, and nobody else. A token of a
 * registered remote bot that is not playing is refused like a stranger's. Spawned bots are admitted by the
 * server's own one-time tokens, not here.
 */
export function admitRemoteBots(bots: Iterable<ResolvedBot>): (token: string) => string | undefined {
  const byHash = new Map<string, string>();
  for (const b of bots) if (b.source === 'remote' && b.tokenHash) byHash.set(b.tokenHash, b.name);
  return (token) => byHash.get(hashToken(token));
}
