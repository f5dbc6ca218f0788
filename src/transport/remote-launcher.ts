/**
 * A bot that runs elsewhere and dials in with its registered long-lived token. The server's authenticate
 * maps that token (by its sha256 hash, see tokens.ts) to the bot's name, which is the identity waited for.
 */
import type { Result } from '../core/types.ts';
import type { BotLauncher, BotLink } from '../protocol/link.ts';
import type { ArenaServer } from './ws-server.ts';

/** A launcher whose connect() waits up to `timeoutMs` for the remote bot `name` to dial in and say hello. */
export function createRemoteLauncher(name: string, server: ArenaServer, timeoutMs: number): BotLauncher {
  let current: BotLink | undefined;
  let abort = new AbortController();
  return {
    name,
    // One live connection per token: the workers of a match share this launcher's link.
    single: true,
    async connect(): Promise<Result<BotLink>> {
      // A restart cannot kill a remote process; it drops the old connection and waits for a new dial-in.
      if (current && !current.closed) await current.close('reconnect requested by referee');
      abort = new AbortController();
      const result = await server.waitForBot(name, timeoutMs, abort.signal);
      current = result.ok ? result.value : undefined;
      return result;
    },
    async dispose(): Promise<void> {
      abort.abort();
      if (current) await current.close('match over');
      current = undefined;
    },
  };
}
