import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import type { MatchRecord, Store } from '../../store/types.ts';
import { parseMatchConfig, type MatchConfig } from '../match-config.ts';

/** A match that may be resumed, with its stored config read. */
export interface Resumable {
  readonly match: MatchRecord;
  readonly config: MatchConfig;
}

/**
 * The one check before any resume (local, distributed, or through the app): the match exists, is not
 * finished, and its stored config is one this version can read. A match decided but still proving its
 * optima is `running`, so it may be resumed: the resume proves what is left.
 */
export async function resumable(store: Pick<Store, 'getMatch'>, id: number): Promise<Result<Resumable>> {
  const match = await store.getMatch(id);
  if (!match) return reject('no-match', `no match with id ${id}`);
  if (match.status === 'finished') return reject('finished', `match ${id} is already finished`);
  const config = parseMatchConfig(match.config);
  if (!config.ok) return reject(config.code, `match ${id} cannot be resumed: ${config.reason}`);
  return { ok: true, value: { match, config: config.value } };
}
