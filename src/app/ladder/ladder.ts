/**
 * `arena ladder`: a long-running service that keeps a leaderboard current. Each turn it reads the field
 * (named bots plus every registered command bot, each as the version its folder and command hash to now),
 * the ratings of the ladder's games, and decides (ladder-schedule.ts): check a new version, play a placement
 * or upkeep game (a normal match, ladder-play.ts), mark a version placed, or wait. Everything it decides
 * from is in the database, so a restart carries on; what it is doing and why is written there too, for
 * `arena ladder status` and the web page.
 */
import type { Result } from '../../core/types.ts';
import { randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import type { BotVersion, LadderGame } from '../../store/ladder-types.ts';
import { checkBot } from '../launch/bot-check.ts';
import { assetNotifier, type AssetNotifier } from '../bots/bot-assets.ts';
import { resolveBot } from '../bots/bot-registry.ts';
import type { AppContext } from '../context.ts';
import type { LadderClass } from './ladder-classes.ts';
import type { PlaySettings } from '../../referee/settings/stored-settings.ts';
import { classesOf, declaredClasses } from './ladder-declares.ts';
import { playGame, resumeGames, type GameSettings } from './ladder-play.ts';
import { ladderStandings } from './ladder-standings.ts';
import { decide, type Decision, type FieldVersion, type PlacementRule } from './ladder-schedule.ts';
import { refreshSnapshot, versionOf } from './ladder-versions.ts';
import { registeredField, waitForChange } from './ladder-wake.ts';
import { openLadderKeeping } from './ladder-keeping.ts';
import { hasWorkQueue } from '../../store/open.ts';

/** What `arena ladder` is asked to do. */
export interface LadderOptions {
  readonly classes: readonly LadderClass[];
  /** Bots on the field besides every registered command bot (built-in or registered names). */
  readonly bots: readonly string[];
  /** Upkeep scrambles this run may play (placements are not counted against it). */
  readonly budget: number;
  /** Scrambles per ladder game. */
  readonly scrambles: number;
  readonly rule: PlacementRule;
  /**
   * The settings every bot of the ladder starts under, its checks and its games alike (the schema's,
   * COMMAND_SETTINGS.ladder: time limit, memory limit, disk budget, unconfined); absent ones at their defaults.
   */
  readonly settings: PlaySettings;
  /** The ladder's seed the first time it runs (later runs keep the stored one); default a random one. */
  readonly seed?: string;
  /** How often the field is looked at while there is nothing to play (ms); a change to the registered bots wakes it sooner (ladder-wake.ts). */
  readonly pollMs?: number;
}

/** What the ladder tells the person running it. */
export interface LadderIo {
  readonly signal: AbortSignal;
  /** One line per thing done (a check, a game, a placement). */
  event?(text: string): void;
}

/** What the ladder says it is doing, stored for `arena ladder status`. */
export interface LadderActivity {
  readonly state: 'running' | 'stopped';
  readonly doing: string;
  readonly why: string;
  readonly at: string;
  readonly pid: number;
  /** The machine it runs on (a pid means something only there). */
  readonly host?: string;
  readonly classes: readonly string[];
  readonly rule: PlacementRule;
  readonly budgetLeft: number;
}

/** The ladder_state key of {@link LadderActivity}. */
export const ACTIVITY_KEY = 'activity';

/** What a run did, when it stops. */
export interface LadderRun {
  readonly games: number;
  readonly checks: number;
  readonly placed: number;
}

/** Runs the ladder until `io.signal` aborts; a rejection only for what stops it (a database it cannot write). */
export async function runLadder(ctx: AppContext, o: LadderOptions, io: LadderIo): Promise<Result<LadderRun>> {
  const ladder = ctx.store.ladder();
  // A misspelt --bot is refused now, not silently left off the field.
  for (const name of o.bots) {
    const bot = await resolveBot(ctx, name);
    if (!bot.ok) return bot;
  }
  const seed = await ladderSeed(ctx, o.seed);
  const settings: GameSettings = { seed, scrambles: o.scrambles, play: o.settings };
  const say = (text: string) => io.event?.(text);
  // A built-in bot whose prepared tables are missing is named once, when it joins the field (or a new version
  // of it does), with the command that builds them; each game's own copy of that line is not repeated.
  const assets = assetNotifier(ctx.projectRoot, say);
  const gameSay = (text: string) => (assets.told(text) ? undefined : say(text));
  const run = { games: 0, checks: 0, placed: 0 };
  let budgetLeft = o.budget;
  // Written only when it says something new: every write moves the database's change marker, and an idle
  // ladder repeating itself every poll would make every page that caches by it recompute.
  let said = '';
  const report = async (state: LadderActivity['state'], doing: string, why: string) => {
    const same = JSON.stringify([state, doing, why, budgetLeft]);
    if (same === said) return;
    said = same;
    const a: LadderActivity = { state, doing, why, at: new Date().toISOString(), pid: process.pid, host: hostname(), classes: o.classes.map((c) => c.name), rule: o.rule, budgetLeft };
    await ladder.setState(ACTIVITY_KEY, JSON.stringify(a));
  };
  await report('running', 'starting', 'resuming any ladder game a previous run left unfinished');
  const resumed = await resumeGames(ctx, { signal: io.signal, notice: gameSay });
  if (!resumed.ok) return resumed;
  run.games += resumed.value.length;
  const hashes = new Map<string, string>();
  // Games played here (not on workers) keep bots that say `reuse` for the next game of the same pairing.
  const keeping = hasWorkQueue(ctx.store) ? undefined : await openLadderKeeping(ctx);
  try {
    while (!io.signal.aborted) {
      const field = await fieldOf(ctx, o, hashes, say, assets);
      const { games, boards } = await ladderStandings(ctx);
      const d = decide({ classes: o.classes.map((c) => c.name), field, boards, together: togetherOf(games), rule: o.rule, budgetLeft });
      await report('running', doingOf(d), d.why);
      if (d.kind === 'idle' || d.kind === 'check') keeping?.release();
      if (d.kind === 'idle') {
        // Woken by the next write to the database (a registration), else by the poll (a folder edited in place).
        await waitForChange(ctx.store, o.pollMs ?? 2000, io.signal, () => registeredField(ctx.store));
        continue;
      }
      if (d.kind === 'check') {
        run.checks++;
        await checkVersion(ctx, d.version, o, say);
        continue;
      }
      if (d.kind === 'placed') {
        run.placed++;
        await ladder.updateVersion(d.version.id, { status: 'placed', note: d.why });
        say(d.why);
        continue;
      }
      const cls = o.classes.find((c) => c.name === d.puzzleClass)!;
      say(`${d.purpose} game on ${d.puzzleClass}: ${d.a.label} vs ${d.b.label} — ${d.why}`);
      const entries = [d.a, d.b].map((v) => ({ bot: v.bot, versionId: v.id }));
      await keeping?.before(entries);
      const played = await playGame(ctx, cls, { purpose: d.purpose, ...(d.subject ? { subject: d.subject.id } : {}), entries, why: d.why }, settings, { signal: io.signal, notice: gameSay, ...(keeping ? { keep: keeping.keep } : {}) });
      if (!played.ok) {
        if (played.code === 'db-write') return played;
        // A game that cannot start must not be tried again and again: a placement fails its version, and
        // upkeep stops for this run; either way the reason is kept.
        say(`ladder game could not be played: ${played.reason}`);
        if (d.subject) await ladder.updateVersion(d.subject.id, { status: 'failed', note: `its ladder game could not be played: ${played.reason}` });
        else budgetLeft = 0;
        continue;
      }
      run.games++;
      if (d.purpose === 'upkeep') budgetLeft -= o.scrambles;
      say(`match ${played.value.matchId} ${played.value.end}`);
    }
  } finally {
    await keeping?.close();
  }
  await report('stopped', 'stopped', 'stopped by its user (Ctrl-C); the same command continues where it stopped');
  return { ok: true, value: run };
}

/** The stored seed, else `given` or a random one, stored now so every later run continues the same stream. */
async function ladderSeed(ctx: AppContext, given: string | undefined): Promise<string> {
  const ladder = ctx.store.ladder();
  const stored = await ladder.getState('seed');
  if (stored !== undefined) return stored;
  const seed = `ladder-${given ?? String(randomInt(0, 2 ** 31))}`;
  await ladder.setState('seed', seed);
  return seed;
}

/**
 * The current version of every bot on the field. A bot is hashed every turn; a version is saved (made
 * current) only when its hash differs from the last one seen, so an unchanged field writes nothing.
 */
async function fieldOf(ctx: AppContext, o: LadderOptions, seen: Map<string, string>, say: (t: string) => void, assets: AssetNotifier): Promise<FieldVersion[]> {
  const ladder = ctx.store.ladder();
  const registered = (await ctx.store.listBots()).filter((b) => b.kind === 'command').map((b) => b.name);
  const names: string[] = [];
  for (const arg of new Set([...o.bots, ...registered])) {
    const resolved = await resolveBot(ctx, arg);
    if (!resolved.ok) {
      // Removed since (its versions and results stay), or its snapshot is not playable here: say which once.
      if (resolved.code !== 'no-bot' && seen.get(`${arg}\0bad`) !== resolved.reason) say(`${arg} is not on the ladder: ${resolved.reason}`);
      seen.set(`${arg}\0bad`, resolved.reason);
      continue;
    }
    // A changed folder is a new snapshot, hence a new version; one that cannot be taken keeps the old.
    const bot = await refreshSnapshot(ctx, resolved.value);
    if (bot.note !== undefined && seen.get(`${bot.bot.name}\0note`) !== bot.note) say(bot.note);
    if (bot.note !== undefined) seen.set(`${bot.bot.name}\0note`, bot.note);
    // Keyed by the name results are recorded under ("ida-star --weight 2", however it was spaced).
    const name = bot.bot.name;
    names.push(name);
    const v = versionOf(bot.bot, ctx.projectRoot);
    if (!v.ok) {
      if (seen.get(name) !== v.reason) say(`${name} is not on the ladder: ${v.reason}`);
      seen.set(name, v.reason);
      continue;
    }
    if (seen.get(name) === v.value.hash) continue;
    seen.set(name, v.value.hash);
    assets.tell([name], o.classes.map((c) => c.name));
    const saved = await ladder.saveVersion(v.value);
    if (saved.status === 'new') say(`${labelOf(saved)}: a new version (${v.value.hash.slice(0, 12)})`);
  }
  const current = (await ladder.listVersions()).filter((v) => v.current && names.includes(v.bot) && seen.has(v.bot) && seen.get(v.bot) === v.hash);
  return current.filter((v) => v.status !== 'failed').map((v) => ({ id: v.id, bot: v.bot, label: labelOf(v), status: v.status, classes: v.classes }));
}

/** "<bot> v<number>". */
export function labelOf(v: Pick<BotVersion, 'bot' | 'number'>): string {
  return `${v.bot} v${v.number}`;
}

/** Checks a new version (bot check, confined unless --no-sandbox), then reads which ladder classes it plays. */
async function checkVersion(ctx: AppContext, v: FieldVersion, o: LadderOptions, say: (t: string) => void): Promise<void> {
  const ladder = ctx.store.ladder();
  await ladder.updateVersion(v.id, { status: 'checking', note: null });
  say(`checking ${v.label} (bot check, ${o.settings.unconfined ? 'UNCONFINED: --no-sandbox' : 'confined'})`);
  const fail = async (why: string) => {
    await ladder.updateVersion(v.id, { status: 'failed', note: why });
    say(`${v.label} failed its check and is not played: ${why}`);
  };
  const checked = await checkBot(ctx, { name: v.bot, settings: o.settings });
  if (!checked.ok) return fail(checked.reason);
  const bad = checked.value.lines.find((l) => !l.ok);
  if (bad) return fail(`${bad.what}: ${bad.detail}`);
  const bot = await resolveBot(ctx, v.bot);
  if (!bot.ok) return fail(bot.reason);
  // The check's own start said hello under the same settings: its capabilities spare the bot another start.
  const caps = checked.value.capabilities;
  const declared = caps ? classesOf(bot.value.name, caps, o.classes) : await declaredClasses(ctx, bot.value, o.classes, o.settings);
  if (!declared.ok) return fail(declared.reason);
  const { plays, declines } = declared.value;
  const note = declines.length ? `declines ${declines.map((d) => `${d.puzzleClass} (${d.reason})`).join('; ')}` : null;
  await ladder.updateVersion(v.id, { status: plays.length ? 'placing' : 'placed', classes: plays, note: plays.length ? note : `plays none of the ladder's classes: ${note ?? ''}` });
  say(`${v.label} passed its check; ${plays.length ? `placing it on ${plays.join(', ')}` : 'it plays none of the ladder classes'}`);
}

/** How many ladder games two versions played together in a class. */
export function togetherOf(games: readonly LadderGame[]): (cls: string, a: number, b: number) => number {
  const counts = new Map<string, number>();
  const key = (cls: string, a: number, b: number) => `${cls}\0${Math.min(a, b)}\0${Math.max(a, b)}`;
  for (const g of games) {
    const [x, y] = g.entries;
    if (x && y) counts.set(key(g.puzzleClass, x.versionId, y.versionId), (counts.get(key(g.puzzleClass, x.versionId, y.versionId)) ?? 0) + 1);
  }
  return (cls, a, b) => counts.get(key(cls, a, b)) ?? 0;
}

function doingOf(d: Decision): string {
  if (d.kind === 'check') return `checking ${d.version.label}`;
  if (d.kind === 'placed') return `placing ${d.version.label}: done`;
  if (d.kind === 'idle') return 'waiting';
  return `${d.purpose === 'placement' ? `placing ${d.subject!.label}` : 'upkeep'}: ${d.a.label} vs ${d.b.label} on ${d.puzzleClass}`;
}

