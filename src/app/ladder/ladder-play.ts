/**
 * Plays one ladder game as a normal match, through the same services `arena match` uses: locally
 * (startMatch, Ctrl-C interrupts it like any match) or, on a PostgreSQL database, on `arena worker`s
 * (startDistributedMatch, then followed until finished; Ctrl-C leaves the workers playing). The game row is
 * written before its match, and the match found again by its seed after a crash in between, so a restart
 * resumes the match it had started and never plays a second one in its place.
 */
import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { hasWorkQueue } from '../../store/open.ts';
import type { LadderGame, NewLadderGame } from '../../store/ladder-types.ts';
import type { AppContext } from '../context.ts';
import { followMatch, resumeDistributedMatch, startDistributedMatch } from '../matches/distributed.ts';
import { resumeMatch, startMatch, type BotKeeping, type StartMatchOptions } from '../matches/matches.ts';
import type { PlaySettings } from '../../referee/settings/stored-settings.ts';
import type { LadderClass } from './ladder-classes.ts';

/** How each ladder game is played. */
export interface GameSettings {
  /** The ladder's seed: game n's scrambles come from "<seed>/<n>". */
  readonly seed: string;
  /** Scrambles per game. */
  readonly scrambles: number;
  /** The ladder's settings (LadderOptions.settings): each game's match is played and recorded under them. */
  readonly play: PlaySettings;
}

/** How a game ended: played to the end, or stopped (Ctrl-C; a restart resumes it). */
export type GameEnd = { readonly matchId: number; readonly end: 'finished' | 'stopped' };

/** What a game reports as it goes. */
export interface GameIo {
  readonly signal: AbortSignal;
  notice?(text: string): void;
  /** Where bots that said `reuse` are kept between local games (ladder-keeping.ts); absent: none are. */
  readonly keep?: BotKeeping;
}

/** Plans the game in the database, then plays its match to the end (or until `io.signal`). */
export async function playGame(ctx: AppContext, cls: LadderClass, g: Omit<NewLadderGame, 'seed' | 'puzzleClass'>, s: GameSettings, io: GameIo): Promise<Result<GameEnd>> {
  const ladder = ctx.store.ladder();
  const last = (await ladder.listGames({ limit: 1 }))[0];
  const seed = `${s.seed}/${(last?.id ?? 0) + 1}`;
  const game = await ladder.addGame({ ...g, seed, puzzleClass: cls.name });
  const options: StartMatchOptions = {
    bots: g.entries.map((e) => e.bot),
    scrambles: { spec: cls.spec, count: s.scrambles },
    ...s.play,
    seed,
    concurrency: 1,
  };
  if (hasWorkQueue(ctx.store)) {
    const queued = await startDistributedMatch(ctx, options, io.notice ? { notice: io.notice } : {});
    if (!queued.ok) return queued;
    await ladder.setGameMatch(game.id, queued.value.match.id);
    return follow(ctx, queued.value.match.id, io);
  }
  let tied: Promise<void> | undefined;
  const played = await startMatch(ctx, options, {
    signal: io.signal,
    ...(io.notice ? { notice: io.notice } : {}),
    ...(io.keep ? { keep: io.keep } : {}),
    onStart: (m) => {
      tied = ladder.setGameMatch(game.id, m.match.id);
    },
  });
  await tied;
  if (!played.ok) return played;
  return ended(played.value.run.match.id, played.value.run.status, played.value.run.storeError);
}

/**
 * Finishes the games a stopped or killed ladder left unfinished: the newest few games (the ladder plays one
 * at a time, so only its last can be pending) whose match is running or interrupted, or whose match was
 * created but not yet tied to the game.
 */
export async function resumeGames(ctx: AppContext, io: GameIo, look = 5): Promise<Result<LadderGame[]>> {
  const ladder = ctx.store.ladder();
  const resumed: LadderGame[] = [];
  for (const g of (await ladder.listGames({ limit: look })).reverse()) {
    let matchId = g.matchId;
    if (matchId === undefined) {
      matchId = await ladder.matchIdBySeed(g.seed);
      if (matchId === undefined) continue; // planned, never created: nothing was played
      await ladder.setGameMatch(g.id, matchId);
    }
    const match = await ctx.store.getMatch(matchId);
    if (!match || match.status === 'finished') continue;
    io.notice?.(`resuming ladder game ${g.id} (match ${matchId}, ${g.puzzleClass}: ${g.entries.map((e) => e.bot).join(' vs ')})`);
    const r = await resume(ctx, matchId, match.status, io);
    if (!r.ok) return r;
    if (r.value.end === 'stopped') return { ok: true, value: resumed };
    resumed.push({ ...g, matchId });
  }
  return { ok: true, value: resumed };
}

async function resume(ctx: AppContext, id: number, status: 'running' | 'interrupted', io: GameIo): Promise<Result<GameEnd>> {
  if (hasWorkQueue(ctx.store)) {
    // A running distributed match is still on the queue; an interrupted one has its missing plays queued again.
    if (status === 'interrupted') {
      const queued = await resumeDistributedMatch(ctx, id, io.notice ? { notice: io.notice } : {});
      if (!queued.ok) return queued;
    }
    return follow(ctx, id, io);
  }
  const played = await resumeMatch(ctx, id, { signal: io.signal, ...(io.notice ? { notice: io.notice } : {}) });
  if (!played.ok) return played;
  return ended(id, played.value.run.status, played.value.run.storeError);
}

async function follow(ctx: AppContext, id: number, io: GameIo): Promise<Result<GameEnd>> {
  const end = await followMatch(ctx, id, { signal: io.signal, onProgress: () => undefined, pollMs: 500 });
  if (!end.ok) return end;
  if (end.value === 'stopped') return reject('stopped', `ladder match ${id} was stopped by someone else; arena match --resume ${id} --distributed queues what is missing`);
  return { ok: true, value: { matchId: id, end: end.value === 'finished' ? 'finished' : 'stopped' } };
}

function ended(matchId: number, status: 'finished' | 'interrupted', storeError: string | undefined): Result<GameEnd> {
  if (storeError !== undefined) return reject('db-write', `ladder match ${matchId} stopped: the database could not be written (${storeError})`);
  return { ok: true, value: { matchId, end: status === 'finished' ? 'finished' : 'stopped' } };
}
