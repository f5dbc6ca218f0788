/**
 * The seals outside a match, checked with the key: the database's head (its key check, its watermark and how
 * many rows of each table were older than the key), the exact-optimum cache and the ladder's tables. With the
 * head sealed, nothing can be passed off as older than the key: not a match or result above the watermark
 * with its seals removed (the watermark cannot be raised), and not a row without a seal anywhere (there are
 * at most as many as the head counted).
 */
import { gameSeal, gamesCountSeal, headSeal, optimumSeal, versionSeal } from '../../store/seal.ts';
import type { SealedTables, SealKey, SealMeta, UnsealedCounts } from '../../store/types.ts';

/** The names of the tables in the head's counts, as problems spell them. */
const TABLES: Record<keyof UnsealedCounts, string> = {
  matches: 'matches',
  results: 'results',
  optima: 'cached optima',
  versions: 'ladder versions',
  games: 'ladder games',
};

/** The head checked against its seal; each problem a line. */
export function headProblems(k: SealKey, meta: SealMeta): string[] {
  if (meta.keyCheck === undefined) return [];
  if (meta.headSeal === undefined || meta.preKey === undefined) {
    return [
      "the database's key check and watermark carry no seal: it was removed (or the database was upgraded by a process without its key; see the audit notes in the docs), so the watermark cannot be trusted",
    ];
  }
  const want = headSeal(k, { keyCheck: meta.keyCheck, sealedAfter: meta.sealedAfter ?? { match: 0, result: 0 }, preKey: meta.preKey });
  return meta.headSeal === want ? [] : ["the database's watermark (which rows predate its key) or its count of older rows changed after they were sealed"];
}

/** The optima and the ladder's rows against their seals, and the unsealed rows against the head's counts. */
export function tableProblems(k: SealKey, meta: SealMeta, t: SealedTables): string[] {
  const out: string[] = [];
  for (const o of t.optima) {
    if (o.seal !== undefined && o.seal !== optimumSeal(k, o.key, o.optimal)) out.push(`the cached optimum ${o.optimal} of state ${o.key} does not match its seal: it was changed`);
  }
  for (const { version: v, seal } of t.versions) {
    if (seal !== undefined && seal !== versionSeal(k, v)) out.push(`ladder version ${v.id} (${v.bot} #${v.number}) does not match its seal: its bot, number, hash, command or folder changed`);
  }
  const seqs = new Set<number>();
  for (const { game: g, seq, seal } of t.games) {
    if (seal === undefined) continue;
    if (seq === undefined || seal !== gameSeal(k, g, seq)) out.push(`ladder game ${g.id} does not match its seal: which version played, its class, purpose, seed, number or match changed`);
    else if (seqs.has(seq)) out.push(`ladder game ${g.id} is a second sealed game numbered ${seq}: it was copied`);
    if (seq !== undefined) seqs.add(seq);
  }
  out.push(...gameCountProblems(k, meta, seqs));
  const pre = meta.preKey;
  if (!pre) return out;
  for (const table of Object.keys(TABLES) as (keyof UnsealedCounts)[]) {
    const now = t.unsealed[table];
    if (now > pre[table]) {
      const which = table === 'optima' ? `: ${unsealedOptima(t).join(', ')}` : '';
      out.push(`${now} ${TABLES[table]} have no seal, but only ${pre[table]} predate the database's key: ${now - pre[table]} were written without the key (inserted directly, or by a process that lacks it)${which}`);
    }
  }
  return out;
}

/** The count of sealed ladder games against its seal and the games' numbers: a game deleted leaves a gap. */
function gameCountProblems(k: SealKey, meta: SealMeta, seqs: ReadonlySet<number>): string[] {
  if (meta.gamesSeal !== undefined ? meta.gamesSeal !== gamesCountSeal(k, meta.sealedGames) : meta.sealedGames > 0) {
    return [`the database's count of sealed ladder games (${meta.sealedGames}) does not match its seal: games were deleted or inserted and the count edited`];
  }
  const missing: number[] = [];
  for (let seq = 1; seq <= meta.sealedGames; seq++) if (!seqs.has(seq)) missing.push(seq);
  return missing.length === 0 ? [] : [`sealed ladder game number${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${meta.sealedGames} ${missing.length > 1 ? 'are' : 'is'} missing: deleted, which changes the ladder's ranking`];
}

/** The unsealed optima, a few of them named. */
function unsealedOptima(t: SealedTables): string[] {
  const list = t.optima.filter((o) => o.seal === undefined);
  const named = list.slice(0, 5).map((o) => `${o.optimal} for ${o.key}`);
  return list.length > named.length ? [...named, `${list.length - named.length} more`] : named;
}
