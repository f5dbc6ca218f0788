/**
 * A built-in bot's start from its Node startup snapshot (scripts/bot-snapshot.js), with real Node
 * processes and a real WebSocket server: the build makes one for every built-in bot under the default
 * limits' flags; a start from it runs the bot without main.cjs; the arena takes it only when it is this
 * build's and this Node's, and only when the start's NODE_OPTIONS are its own (else main.cjs, which still
 * says hello); a confined bot (real bwrap) starts from it too.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBot } from '../../src/app/bots/bot-registry.ts';
import { openContext } from '../../src/app/context.ts';
import { buildIsFresh } from '../../src/runtime/source-tree.ts';
import { builtinBotCommand, listBuiltinBots, snapshotStart } from '../../src/transport/process/builtin-bots.ts';
import type { SnapshotStart } from '../../src/transport/process/builtin-bots.ts';
import { nodeOptionsFor, resolveLimits } from '../../src/transport/process/bot-limits.ts';
import { createProcessLauncher } from '../../src/transport/process/process-launcher.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';
import { CAN_SANDBOX, sandboxFor } from '../helpers/sandbox.ts';
import { ROOT } from './helpers.ts';

const linux = process.platform === 'linux';
/** `npm test` builds dist/ first, so under CI the snapshots are always there to test. */
const BUILT = process.env.CI === 'true' || buildIsFresh(ROOT);
const BOT = 'constructive';
const BUILT_DIR = join(ROOT, 'dist', 'bots-cjs', BOT);
const FILES = ['main.cjs', 'bundle.cjs', 'code-cache.bin', 'snapshot.blob', 'snapshot.json', 'snapshot-entry.cjs'];
const DEFAULT_FLAGS = nodeOptionsFor(resolveLimits(), undefined);

/** Runs `args` as a stdio bot whose referee hangs up at once; its first line (the hello, if any). */
function firstLine(args: readonly string[], nodeOptions: string): { type?: string; name?: string } {
  const run = spawnSync(process.execPath, args, { env: { PATH: '/usr/bin:/bin', HOME: '/tmp', ARENA_STDIO: '1', NODE_OPTIONS: nodeOptions }, input: '', encoding: 'utf8', timeout: 60_000 });
  const first = run.stdout.split('\n')[0] ?? '';
  return first.startsWith('{') ? (JSON.parse(first) as { type?: string; name?: string }) : {};
}

describe.runIf(BUILT)('bot snapshot - a built-in bot starts from the snapshot its build made', () => {
  let dir: string;
  let server: ArenaServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-snapshot-'));
    server = await startArenaServer({ authenticate: () => undefined });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A copy of the bot's built files whose snapshot.json names the copy's folder (else it is refused). */
  const copy = (): string => {
    const to = mkdtempSync(join(dir, 'bot-'));
    for (const f of FILES) copyFileSync(join(BUILT_DIR, f), join(to, f));
    const facts = JSON.parse(readFileSync(join(to, 'snapshot.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(to, 'snapshot.json'), JSON.stringify({ ...facts, dir: to }));
    return to;
  };
  const spoilFacts = (to: string, change: Record<string, unknown>): void => {
    const facts = JSON.parse(readFileSync(join(to, 'snapshot.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(to, 'snapshot.json'), JSON.stringify({ ...facts, ...change }));
  };

  it('bot snapshot - every built-in bot has one for this Node under the default limits\' flags, and a start from it says hello', () => {
    for (const name of listBuiltinBots(ROOT)) {
      const main = join(ROOT, 'dist', 'bots-cjs', name, 'main.cjs');
      expect({ name, fast: builtinBotCommand(name, ROOT)?.startSnapshot }).toEqual({ name, fast: { nodeOptions: DEFAULT_FLAGS, args: ['--snapshot-blob', join(ROOT, 'dist', 'bots-cjs', name, 'snapshot.blob'), main] } });
    }
    expect(firstLine(builtinBotCommand(BOT, ROOT)!.startSnapshot!.args, DEFAULT_FLAGS)).toEqual(expect.objectContaining({ type: 'hello', name: BOT }));
  });

  it('bot snapshot - a start from it runs the bot without running main.cjs (argv[1] only names it)', () => {
    const to = copy();
    writeFileSync(join(to, 'main.cjs'), "process.stdout.write('{\"type\":\"not-the-snapshot\"}\\n');\n");
    expect(firstLine(snapshotStart(join(to, 'main.cjs'))!.args, DEFAULT_FLAGS)).toEqual(expect.objectContaining({ type: 'hello', name: BOT }));
    expect(firstLine([join(to, 'main.cjs')], DEFAULT_FLAGS)).toEqual({ type: 'not-the-snapshot' }); // the check can fail
  });

  it('bot snapshot - a bot\'s own flags reach it after main.cjs, as in a plain start (resolveBot appends them)', async () => {
    const ctx = await openContext({ db: ':memory:', projectRoot: ROOT });
    if (!ctx.ok) throw new Error(ctx.reason);
    const bot = await resolveBot(ctx.value, 'ida-star --bogus');
    await ctx.value.close();
    const args = bot.ok ? bot.value.startSnapshot?.args : undefined;
    expect(args?.slice(-2)).toEqual([join(ROOT, 'dist', 'bots-cjs', 'ida-star', 'main.cjs'), '--bogus']);
    const run = spawnSync(process.execPath, args!, { env: { PATH: '/usr/bin:/bin', HOME: '/tmp', ARENA_STDIO: '1', NODE_OPTIONS: DEFAULT_FLAGS }, input: '', encoding: 'utf8', timeout: 60_000 });
    expect({ status: run.status, stderr: run.stderr.trim() }).toEqual({ status: 2, stderr: expect.stringContaining('unknown flag --bogus') });
  });

  it('bot snapshot - missing, another build\'s, another Node\'s, made elsewhere, or unreadable facts: not offered, and the bot still starts from main.cjs', () => {
    const cases: [string, (to: string) => void][] = [
      ['no blob', (to) => unlinkSync(join(to, 'snapshot.blob'))],
      ['no facts', (to) => unlinkSync(join(to, 'snapshot.json'))],
      ['corrupt facts', (to) => writeFileSync(join(to, 'snapshot.json'), '{"build":')],
      ['another build', (to) => spoilFacts(to, { build: 'f00df00df00df00d' })],
      ['another Node', (to) => spoilFacts(to, { node: 'v20.0.0' })],
      ['another binary of this version', (to) => spoilFacts(to, { execSize: 1 })],
      ['made in another folder', (to) => spoilFacts(to, { dir: BUILT_DIR })],
    ];
    const intact = copy();
    expect(snapshotStart(join(intact, 'main.cjs'))).toBeDefined(); // the spoiling below is what refuses it
    for (const [name, spoil] of cases) {
      const to = copy();
      spoil(to);
      expect({ name, fast: snapshotStart(join(to, 'main.cjs')) }).toEqual({ name, fast: undefined });
      expect({ name, hello: firstLine([join(to, 'main.cjs')], DEFAULT_FLAGS) }).toEqual({ name, hello: expect.objectContaining({ type: 'hello', name: BOT }) });
    }
  });

  it('bot snapshot - the spawn takes it only under its own NODE_OPTIONS: another memory limit starts main.cjs', async () => {
    const to = copy();
    const main = join(to, 'main.cjs');
    // A blob Node refuses: taking it fails the start, so whether the spawn took it shows.
    writeFileSync(join(to, 'snapshot.blob'), Buffer.alloc(4096, 0x5a));
    const refused = { nodeOptions: DEFAULT_FLAGS, args: ['--snapshot-blob', join(to, 'snapshot.blob'), main] };
    const launch = async (memoryBytes?: number, startSnapshot: SnapshotStart = refused): Promise<boolean> => {
      const launcher = createProcessLauncher({ name: BOT, command: process.execPath, args: [main], server, startTimeoutMs: 60_000, startSnapshot, env: { NODE_OPTIONS: '' }, ...(memoryBytes ? { limits: { memoryBytes } } : {}) });
      const got = await launcher.connect();
      await launcher.dispose();
      return got.ok;
    };
    expect(await launch(300 * 1024 * 1024)).toBe(true); // other flags: main.cjs
    expect(await launch()).toBe(false); // its own flags: the (refused) blob
    expect(await launch(undefined, snapshotStart(join(ROOT, 'dist', 'bots-cjs', BOT, 'main.cjs'))!)).toBe(true);
  });
});

describe.runIf(BUILT && linux && CAN_SANDBOX)('bot snapshot - confined', () => {
  let server: ArenaServer;
  beforeAll(async () => {
    server = await startArenaServer({ authenticate: () => undefined });
  });
  afterAll(async () => {
    await server.close();
  });

  it('sandbox - a confined built-in bot starts from its snapshot (the blob is shown read-only) and says hello', async () => {
    const { entry, ...command } = builtinBotCommand(BOT, ROOT)!;
    // A confined start's NODE_OPTIONS are the default limits' alone: the snapshot's.
    expect(command.startSnapshot?.nodeOptions).toBe(DEFAULT_FLAGS);
    const launcher = createProcessLauncher({ name: BOT, ...command, server, startTimeoutMs: 60_000, confine: sandboxFor(entry) });
    const got = await launcher.connect();
    await launcher.dispose();
    expect(got.ok ? got.value.hello.name : got.reason).toBe(BOT);
  });
});
