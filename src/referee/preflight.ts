/**
 * Before a match is created: which bots can play which puzzle classes. Each bot the arena starts is started
 * once and its `hello` read (its declared capabilities), before any scramble is generated or stored, so a
 * match no bot can play is refused at once instead of generating every scramble only to record `unsupported`
 * for each. The started bot is not wasted: the match's first player is handed that very connection. A bot
 * kept from an earlier match (link-keeper.ts) is not started again: its hello says what it plays.
 */
import type { PuzzleState, Result, ScrambleSpec } from '../core/types.ts';
import { reject } from '../core/types.ts';
import type { BotLauncher, BotLink } from '../protocol/link.ts';
import type { Capability } from '../protocol/messages.ts';
import { getPuzzle, puzzleOf } from '../puzzles/index.ts';
import type { MatchConfig } from './match-config.ts';
import { playLimitsOf } from './job-source.ts';
import { capabilityGap } from './solve-one.ts';
import { launchKey, type LaunchOptions } from './launch-key.ts';
import type { LinkKeeper } from './link-keeper.ts';

/** One puzzle class of a match, and a state that stands for all of its scrambles in a capability check. */
export interface ClassSample {
  readonly puzzleClass: string;
  readonly state: PuzzleState;
}

/** A bot that declines a class of the match, and why (from its declared capabilities). */
export interface Decline {
  readonly bot: string;
  readonly puzzleClass: string;
  readonly reason: string;
}

/** What the check found, and the connections it made, ready for the match. */
export interface Preflight {
  /** Every (bot, class) the bot declared it cannot play. */
  readonly declines: readonly Decline[];
  /** Bots whose capabilities could not be read before the match (remote bots, bots that did not start). */
  readonly unknown: readonly string[];
  /** The match's launcher factory: the first player's launcher of a checked bot starts on the checked link. */
  makeLauncher(bot: string, opts: LaunchOptions): BotLauncher;
  /** Closes whatever the match did not take over. Call once the match is over (or refused). */
  dispose(): Promise<void>;
}

/**
 * The classes of a generated match without generating a scramble: every scramble of a spec has the size of
 * the spec's goal, which is what a capability bounds (a kind and a size measure).
 */
export function specSamples(spec: ScrambleSpec<string>): Result<ClassSample[]> {
  const found = getPuzzle(spec.kind);
  if (!found.ok) return found;
  const norm = found.value.normalizeSpec(spec);
  if (!norm.ok) return norm;
  const goal = found.value.goal(norm.value);
  return { ok: true, value: [{ puzzleClass: found.value.className(goal), state: goal }] };
}

/** The classes of explicit scrambles (a file), the largest state of each standing for the class. */
export function stateSamples(states: readonly PuzzleState[]): ClassSample[] {
  const byClass = new Map<string, { state: PuzzleState; size: number }>();
  for (const state of states) {
    const p = puzzleOf(state);
    const puzzleClass = p.className(state);
    const size = p.sizeMeasure(state);
    const seen = byClass.get(puzzleClass);
    if (!seen || size > seen.size) byClass.set(puzzleClass, { state, size });
  }
  return [...byClass].map(([puzzleClass, s]) => ({ puzzleClass, state: s.state }));
}

/** The declines of one bot's capabilities over the classes. */
export function declinesOf(bot: string, caps: readonly Capability[], samples: readonly ClassSample[]): Decline[] {
  const out: Decline[] = [];
  for (const s of samples) {
    const gap = capabilityGap(caps, s.state);
    if (gap !== undefined) out.push({ bot, puzzleClass: s.puzzleClass, reason: gap });
  }
  return out;
}

/**
 * True when no scramble of the match has a bot that may play it: every bot whose capabilities are known
 * declines every class, and no bot's capabilities are unknown.
 */
export function nobodyPlays(p: Pick<Preflight, 'declines' | 'unknown'>, bots: readonly string[], samples: readonly ClassSample[]): boolean {
  if (p.unknown.length > 0 || samples.length === 0) return false;
  return samples.every((s) => bots.every((b) => p.declines.some((d) => d.bot === b && d.puzzleClass === s.puzzleClass)));
}

/** The one-line refusal of a match nobody can play: which bot declines which class. */
export function refusalText(declines: readonly Decline[]): string {
  return `no bot can play this match: ${declines.map((d) => `${d.bot} declines ${d.puzzleClass} (${d.reason})`).join('; ')}`;
}

/**
 * Starts every bot of `config` that the arena starts (a remote bot is only awaited when the match plays),
 * reads its declared capabilities against `samples`, and keeps the connection for the match's first player.
 * A bot that fails to start here is started again by the match, which charges it as it always does.
 */
export async function preflight(
  config: MatchConfig,
  samples: readonly ClassSample[],
  makeLauncher: (bot: string, opts: LaunchOptions) => BotLauncher,
  keeper?: LinkKeeper,
): Promise<Preflight> {
  // The options the first player asks with (player.ts keys its launchers by these), so it can take over.
  const limits = playLimitsOf(config);
  const opts: LaunchOptions = { ...limits, player: 0 };
  const ready = new Map<string, { launcher: BotLauncher; link: BotLink }>();
  const declines: Decline[] = [];
  const unknown: string[] = [];
  await Promise.all(
    config.bots.map(async (bot) => {
      const launcher = makeLauncher(bot, opts);
      if (launcher.single) {
        // A remote bot dials in when it likes; its capabilities are known only once the match waits for it.
        unknown.push(bot);
        await launcher.dispose();
        return;
      }
      const kept = launcher.reuse && keeper?.peek(launcher.reuse.launch);
      if (kept) {
        // The match's player takes the kept bot itself (with what it was prepared for).
        await launcher.dispose();
        declines.push(...declinesOf(bot, kept.hello.capabilities, samples));
        return;
      }
      const got = await launcher.connect();
      if (!got.ok) {
        unknown.push(bot);
        await launcher.dispose();
        return;
      }
      ready.set(bot, { launcher, link: got.value });
      declines.push(...declinesOf(bot, got.value.hello.capabilities, samples));
    }),
  );
  // In the order the bots were named, whatever order they started in.
  const order = (b: string) => config.bots.indexOf(b);
  declines.sort((a, b) => order(a.bot) - order(b.bot));
  unknown.sort((a, b) => order(a) - order(b));
  return {
    declines,
    unknown,
    makeLauncher(bot, o) {
      const kept = ready.get(bot);
      const same = kept && (o.player ?? 0) === 0 && launchKey(bot, o) === launchKey(bot, limits);
      if (!kept || !same) return makeLauncher(bot, o);
      ready.delete(bot);
      return handOver(kept.launcher, kept.link);
    },
    async dispose() {
      const left = [...ready.values()];
      ready.clear();
      await Promise.all(left.map(async (k) => {
        await k.link.close('match over');
        await k.launcher.dispose();
      }));
    },
  };
}

/** `launcher`, whose first connect returns the link it already made (when still open). */
function handOver(launcher: BotLauncher, link: BotLink): BotLauncher {
  let first: BotLink | undefined = link;
  return {
    name: launcher.name,
    connect: async () => {
      const l = first;
      first = undefined;
      return l && !l.closed ? { ok: true, value: l } : launcher.connect();
    },
    dispose: () => launcher.dispose(),
    ...(launcher.reuse ? { reuse: launcher.reuse } : {}),
  };
}

/** Refuses when nobody plays; else the declines to warn about (possibly none). */
export function verdictOf(p: Preflight, bots: readonly string[], samples: readonly ClassSample[]): Result<readonly Decline[]> {
  if (nobodyPlays(p, bots, samples)) return reject('unplayable', refusalText(p.declines));
  return { ok: true, value: p.declines };
}

/** One scramble of each class of a match: of `states` when it has explicit ones, else of its spec. */
export function matchSamples(config: { readonly spec?: ScrambleSpec<string> }, states: readonly PuzzleState[] | undefined): Result<ClassSample[]> {
  return states ? { ok: true, value: stateSamples(states) } : config.spec ? specSamples(config.spec) : { ok: true, value: [] };
}

/**
 * The one capability preflight of a match, played here or queued for workers: the classes of its scrambles
 * (of `states` when it has explicit ones, else of its spec), its bots started once and read, a match nobody
 * can play refused, each bot that declines part of it told to `onDecline`; then `use` runs with the checked
 * connections (a local match plays on them: see Preflight.makeLauncher), which are closed once it returns.
 */
export async function withPreflight<T>(
  config: MatchConfig,
  states: readonly PuzzleState[] | undefined,
  makeLauncher: (bot: string, opts: LaunchOptions) => BotLauncher,
  onDecline: (d: Decline) => void,
  use: (checked: Preflight) => Promise<Result<T>>,
  keeper?: LinkKeeper,
): Promise<Result<T>> {
  const samples = matchSamples(config, states);
  if (!samples.ok) return samples;
  const checked = await preflight(config, samples.value, makeLauncher, keeper);
  try {
    const declines = verdictOf(checked, config.bots, samples.value);
    if (!declines.ok) return declines;
    for (const d of declines.value) onDecline(d);
    return await use(checked);
  } finally {
    await checked.dispose();
  }
}
