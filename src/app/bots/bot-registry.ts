/**
 * The bot registry: built-in bots (bots/<name>/, known without registration) and registered ones (a
 * command the referee spawns, or a remote bot that dials in with a token). Registration checks everything
 * it can at once, so a mistake is reported by `bot add` and not by a match hours later.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import type { BotRecord } from '../../store/types.ts';
import { builtinBotCommand, listBuiltinBots } from '../../transport/process/builtin-bots.ts';
import type { SnapshotStart } from '../../transport/process/builtin-bots.ts';
import { hashToken, newToken } from '../../transport/tokens.ts';
import { UID_POOL } from '../../sandbox/limits/uid-pool.ts';
import { checkBotName, lookAlike, nearestName } from './bot-names.ts';
import { playedSnapshot, rivalFolders, takeBotSnapshot, type PlayedSnapshot } from './bot-snapshot.ts';
import { checkRegisteredFolder } from './registered-folder.ts';
import type { AppContext } from '../context.ts';
import { declaredThreads } from './bot-threads.ts';
import { splitCommand } from './split-command.ts';
import { localBuildOf } from './submitted-bot.ts';

/** What `bot add` is given. Exactly one of `cmd` and `remote`. */
export interface AddBotOptions {
  readonly name: string;
  readonly cmd?: string;
  readonly cwd?: string;
  readonly stdio?: boolean;
  readonly remote?: boolean;
}

/** A registered bot; a remote bot's token is returned this once (only its hash is stored). */
export interface AddedBot {
  readonly record: BotRecord;
  readonly token?: string;
  /** Something the user should know about how it will run (its sandbox's uid and folder). */
  readonly note?: string;
}

/** Registers a command or remote bot. */
export async function addBot(ctx: AppContext, o: AddBotOptions): Promise<Result<AddedBot>> {
  if (Boolean(o.remote) === (o.cmd !== undefined)) return reject('bad-options', 'give exactly one of --cmd "<command line>" or --remote');
  if (o.remote && (o.cwd !== undefined || o.stdio)) return reject('bad-options', '--cwd and --stdio apply to --cmd bots only');
  const builtins = listBuiltinBots(ctx.projectRoot);
  if (builtins.includes(o.name)) return reject('taken', `"${o.name}" is a built-in bot; pick another name`);
  const registered = (await ctx.store.listBots()).map((b) => b.name);
  if (registered.includes(o.name)) {
    return reject('taken', `a bot named "${o.name}" is already registered (arena bot remove ${o.name} first)`);
  }
  // Look-alikes first: "Dijkstra" is refused as a copy of "dijkstra", not merely for its capital.
  const twin = lookAlike(o.name, [...builtins, ...registered]);
  if (twin) {
    const whose = builtins.includes(twin) ? 'the built-in bot' : 'the registered bot';
    return reject('look-alike', `"${o.name}" is too easily confused with ${whose} "${twin}"; pick a clearly different name`);
  }
  const named = checkBotName(o.name);
  if (!named.ok) return named;

  if (o.remote) {
    const token = newToken();
    await ctx.store.addBot({ name: o.name, kind: 'remote', tokenHash: hashToken(token) });
    return { ok: true, value: { record: (await ctx.store.getBot(o.name))!, token } };
  }
  const launch = checkCommand(o.cmd!, o.cwd);
  if (!launch.ok) return launch;
  const folder = checkRegisteredFolder(ctx, o.name, o.cmd!, launch.value.cwd);
  if (!folder.ok) return folder;
  // What it plays and how it starts are fixed now, from its folder as it is (bots/bot-snapshot.ts).
  const taken = launch.value.cwd !== undefined ? takeBotSnapshot(ctx, o.cmd!, launch.value.cwd, await rivalFolders(ctx, o.name)) : ok(undefined);
  if (!taken.ok) return reject(taken.code, `bot ${o.name} is not registered: ${taken.reason}`);
  await ctx.store.addBot({
    name: o.name,
    kind: 'command',
    cmd: o.cmd!,
    ...(launch.value.cwd !== undefined ? { cwd: launch.value.cwd } : {}),
    ...(o.stdio ? { stdio: true } : {}),
    ...(taken.value ?? {}),
  });
  const note = launch.value.cwd !== undefined ? folderNote(launch.value.cwd, taken.value?.snapshot) : undefined;
  return { ok: true, value: { record: (await ctx.store.getBot(o.name))!, ...(note ? { note } : {}) } };
}

/** What it plays (a read-only snapshot of its folder), and, as root, the uid it runs as: say so now. */
function folderNote(folder: string, snapshot: string | undefined): string | undefined {
  const lines: string[] = [];
  if (snapshot !== undefined) {
    lines.push(`note: the bot plays a read-only snapshot of ${folder} taken now (${snapshot.slice(0, 12)}); later edits of the folder take effect when it is registered again or the ladder takes a new snapshot`);
  }
  if (process.getuid?.() === 0) {
    const last = UID_POOL.first + UID_POOL.size - 1;
    const reads = snapshot !== undefined ? 'it reads its snapshot' : `it reads ${folder} as "others" may`;
    lines.push(`note: each start of the bot runs as a uid of its own (${UID_POOL.first}-${last}): ${reads}, and writes only /tmp and $ARENA_CACHE (its persistent cache)`);
  }
  return lines.length ? lines.join('\n') : undefined;
}

/**
 * Checks a command line at registration: it splits, `cwd` is an existing directory, and the program is an
 * executable file (a path, taken relative to `cwd`, or a name found on PATH). A relative program path is
 * pinned to the directory it was registered from, so the bot starts the same from any directory later.
 */
function checkCommand(cmd: string, cwd: string | undefined): Result<{ cwd?: string }> {
  const argv = splitCommand(cmd);
  if (!argv.ok) return argv;
  const program = argv.value[0];
  if (program === undefined) return reject('bad-command', '--cmd is empty');
  let dir: string | undefined;
  if (cwd !== undefined) {
    dir = resolve(cwd);
    if (!isDirectory(dir)) return reject('bad-cwd', `--cwd ${cwd}: no such directory`);
  }
  if (program.includes('/')) {
    const base = dir ?? process.cwd();
    const file = resolve(base, program);
    if (!isExecutable(file)) return reject('bad-command', `--cmd: ${program} is not an executable file (looked at ${file})`);
    return { ok: true, value: { cwd: base } };
  }
  if (!onPath(program)) return reject('bad-command', `--cmd: no program "${program}" on PATH`);
  return { ok: true, value: dir !== undefined ? { cwd: dir } : {} };
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function onPath(program: string): boolean {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((d) => d !== '' && isAbsolute(d));
  return dirs.some((d) => isExecutable(join(d, program)));
}

/** One line of the bot list. */
export interface BotEntry {
  readonly name: string;
  readonly kind: 'built-in' | 'command' | 'remote';
  /** How it is started, for people. */
  readonly how: string;
}

/** Built-in and registered bots. */
export async function listBots(ctx: AppContext): Promise<BotEntry[]> {
  const builtin = listBuiltinBots(ctx.projectRoot).map((name): BotEntry => ({ name, kind: 'built-in', how: `bots/${name}/main.ts` }));
  const registered = (await ctx.store.listBots()).map(
    (b): BotEntry => ({
      name: b.name,
      kind: b.kind,
      how: b.kind === 'remote' ? 'dials in with its token' : `${b.cmd}${b.stdio ? ' (stdio)' : ''}${b.cwd ? ` in ${b.cwd}` : ''}`,
    }),
  );
  return [...builtin, ...registered];
}

/** Unregisters a bot; its past results stay. */
export async function removeBot(ctx: AppContext, name: string): Promise<Result<{ name: string }>> {
  if (await ctx.store.removeBot(name)) return { ok: true, value: { name } };
  if (builtinBotCommand(name, ctx.projectRoot)) return reject('builtin', `"${name}" is a built-in bot; it cannot be removed`);
  return reject('no-bot', `no registered bot named "${name}"`);
}

/** How to start one bot of a match. */
export interface ResolvedBot {
  /** The name results are recorded under: the base name plus any extra flags, e.g. "ida-star --weight 2". */
  readonly name: string;
  readonly source: 'builtin' | 'command' | 'remote';
  readonly command?: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly stdio?: boolean;
  /** Remote bots: the hash of the token it authenticates with. */
  readonly tokenHash?: string;
  /** Built-in bots: the main file, from which the sandbox finds what of the checkout the bot needs. */
  readonly entry?: string;
  /** Built-in bots: the faster start from the build's startup snapshot, where it has one for this Node. */
  readonly startSnapshot?: SnapshotStart;
  /** Registered command bots with a folder: the read-only snapshot they play and their registered runtime. */
  readonly snapshot?: PlayedSnapshot;
  /** The threads it declares it solves with (its folder's arena-bot.json, bot-threads.ts); absent: one. */
  readonly threads?: number;
}

/**
 * Resolves a bot argument: "<name> [extra flags]". Registered bots first (their command line gets the extra
 * flags appended), then built-in bots under bots/<name>/.
 */
export async function resolveBot(ctx: AppContext, arg: string): Promise<Result<ResolvedBot>> {
  const split = splitCommand(arg);
  if (!split.ok) return split;
  const [base, ...extra] = split.value;
  if (!base) return reject('bad-bot', 'empty bot name');
  const name = [base, ...extra].join(' ');
  const reg = await ctx.store.getBot(base);
  if (reg?.kind === 'remote') {
    if (extra.length) return reject('bad-bot', `bot ${base} is remote: it cannot take extra flags`);
    return { ok: true, value: { name, source: 'remote', args: [], ...(reg.tokenHash ? { tokenHash: reg.tokenHash } : {}) } };
  }
  if (reg?.kind === 'command') {
    const argv = splitCommand(reg.cmd ?? '');
    if (!argv.ok) return reject('bad-bot', `bot ${base}: ${argv.reason}`);
    const [command, ...args] = argv.value;
    if (!command) return reject('bad-bot', `bot ${base} has an empty command line`);
    // A submitted bot whose build folder is not on this machine is built here from its stored version.
    const local = await localBuildOf(ctx, reg);
    if (!local.ok) return reject('bad-bot', `bot ${base}: ${local.reason}`);
    const snapshot = local.value ? ok(local.value.snapshot) : await playedSnapshot(ctx, reg);
    if (!snapshot.ok) return reject('bad-bot', `bot ${base}: ${snapshot.reason}`);
    const cwd = local.value?.cwd ?? reg.cwd;
    const bot: ResolvedBot = { name, source: 'command', command, args: [...args, ...extra], ...(cwd ? { cwd } : {}), ...(reg.stdio ? { stdio: true } : {}), ...(snapshot.value ? { snapshot: snapshot.value } : {}) };
    const threads = declaredThreads(base, bot.snapshot?.path ?? bot.cwd);
    if (!threads.ok) return reject('bad-bot', threads.reason);
    return { ok: true, value: threads.value > 1 ? { ...bot, threads: threads.value } : bot };
  }
  const builtin = builtinBotCommand(base, ctx.projectRoot);
  if (builtin) {
    const fast = builtin.startSnapshot;
    const startSnapshot = fast ? { startSnapshot: { nodeOptions: fast.nodeOptions, args: [...fast.args, ...extra] } } : {};
    return { ok: true, value: { name, source: 'builtin', command: builtin.command, args: [...builtin.args, ...extra], entry: builtin.entry, ...startSnapshot } };
  }
  const known = [...listBuiltinBots(ctx.projectRoot), ...(await ctx.store.listBots()).map((b) => b.name)].sort();
  const near = nearestName(base, known);
  const hint = near ? `; did you mean "${near}"?` : `; known bots: ${known.join(', ') || '(none)'}`;
  return reject('no-bot', `unknown bot "${base}"${hint}`);
}
