/**
 * What the ladder is doing and where every bot stands, from the database alone: for `arena ladder status`
 * and the web's ladder and bot pages. Per class, the current version of each bot with its rating interval
 * (older versions keep their results and ratings, shown on the bot's page), the versions being placed with
 * their progress against the placement rule, the most recent games and the pace (games per minute).
 */
import { hostname } from 'node:os';
import type { BotVersion, LadderGame } from '../../store/ladder-types.ts';
import type { AppContext } from '../context.ts';
import { ACTIVITY_KEY, labelOf, type LadderActivity } from './ladder.ts';
import type { VersionRating } from './ladder-ratings.ts';
import { ladderStandings } from './ladder-standings.ts';
import { classProgress } from './ladder-schedule.ts';
import { ladderPace, type LadderPace } from './ladder-pace.ts';

/** One line of a class's ranking. */
export interface RankedVersion extends VersionRating {
  readonly label: string;
  readonly bot: string;
  readonly status: BotVersion['status'];
}

/** A version being placed in one class, and how far it is. */
export interface PlacementProgress {
  readonly label: string;
  readonly games: number;
  /** High − low of its interval, Elo (Infinity before any game). */
  readonly width: number;
  readonly why: string;
}

/** One class of the ladder. */
export interface LadderClassView {
  readonly puzzleClass: string;
  /** Current versions with a rating, best first. */
  readonly ranking: readonly RankedVersion[];
  readonly placing: readonly PlacementProgress[];
}

/** A recent game with its versions named. */
export interface RecentGame extends LadderGame {
  readonly labels: readonly string[];
}

/** The whole ladder. */
export interface LadderView {
  readonly activity?: LadderActivity;
  readonly classes: readonly LadderClassView[];
  /** Every version, oldest first. */
  readonly versions: readonly BotVersion[];
  readonly recent: readonly RecentGame[];
  /** Games per minute over the last minutes (ladder-pace.ts); absent before two games. */
  readonly pace?: LadderPace;
}

/**
 * A ladder that says it is running but whose process on this machine is gone (killed, not stopped) is shown
 * as stopped, with why; on another machine its word is taken.
 */
function gone(a: LadderActivity): LadderActivity {
  if (a.state !== 'running' || a.host !== hostname()) return a;
  try {
    process.kill(a.pid, 0);
    return a;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') return a;
    return { ...a, state: 'stopped', doing: `stopped: its process (${a.pid}) is gone`, why: `it was killed while ${a.doing}; the same command continues where it stopped` };
  }
}

/** The ladder as stored; `recent` games newest first (default 20), those before game id `before` when given. */
export async function ladderView(ctx: AppContext, o: { recent?: number; before?: number } = {}): Promise<LadderView> {
  const ladder = ctx.store.ladder();
  const raw = await ladder.getState(ACTIVITY_KEY);
  const activity = raw === undefined ? undefined : gone(JSON.parse(raw) as LadderActivity);
  const { versions, games, boards } = await ladderStandings(ctx);
  const byId = new Map(versions.map((v) => [v.id, v]));
  const names = activity?.classes ?? [...boards.keys()].sort();
  const classes = names.map((puzzleClass): LadderClassView => {
    const board = boards.get(puzzleClass);
    const ranking = [...(board?.values() ?? [])]
      .filter((r) => byId.get(r.versionId)?.current)
      .map((r) => ({ ...r, label: labelOf(byId.get(r.versionId)!), bot: byId.get(r.versionId)!.bot, status: byId.get(r.versionId)!.status }))
      .sort((a, b) => b.rating - a.rating || a.label.localeCompare(b.label));
    const placing = versions
      .filter((v) => v.current && v.status === 'placing' && v.classes.includes(puzzleClass))
      .map((v) => {
        const p = activity ? classProgress(board?.get(v.id), activity.rule) : { games: board?.get(v.id)?.games ?? 0, width: Infinity, why: '' };
        return { label: labelOf(v), games: p.games, width: p.width, why: p.why };
      });
    return { puzzleClass, ranking, placing };
  });
  const recent = games.filter((g) => o.before === undefined || g.id < o.before).slice(0, o.recent ?? 20).map((g) => ({ ...g, labels: g.entries.map((e) => (byId.get(e.versionId) ? labelOf(byId.get(e.versionId)!) : e.bot)) }));
  const pace = ladderPace(games, Date.now(), activity?.state === 'running');
  return { ...(activity ? { activity } : {}), classes, versions, recent, ...(pace ? { pace } : {}) };
}

/** One version of a bot with its rating in each class it played. */
export interface VersionView extends BotVersion {
  readonly label: string;
  readonly ratings: readonly (VersionRating & { readonly puzzleClass: string })[];
  /** Ladder games it played. */
  readonly games: number;
}

/** Every version of `bot`, newest first, each with its ratings (the history a changed bot keeps). */
export async function botVersions(ctx: AppContext, bot: string): Promise<VersionView[]> {
  const { versions: all, games, boards } = await ladderStandings(ctx);
  const versions = all.filter((v) => v.bot === bot);
  return versions.reverse().map((v) => ({
    ...v,
    label: labelOf(v),
    ratings: [...boards].flatMap(([puzzleClass, b]) => (b.has(v.id) ? [{ ...b.get(v.id)!, puzzleClass }] : [])),
    games: games.filter((g) => g.entries.some((e) => e.versionId === v.id)).length,
  }));
}
