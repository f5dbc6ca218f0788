/**
 * A built-in bot's fast start (scripts/bot-bundles.js, scripts/bot-boot.cjs): its one-file bundle runs
 * from the V8 code cache the build made, with real Node processes. The cache is taken under the flags a
 * bot gets by default and refused under others; a cache of another build, a corrupt one or none leaves
 * the plain start, which still says hello; and a confined bot (real bwrap) can write none of the files it
 * starts from.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIsFresh } from '../../src/runtime/source-tree.ts';
import { builtinBotCommand } from '../../src/transport/process/builtin-bots.ts';
import { nodeOptionsFor, resolveLimits } from '../../src/transport/process/bot-limits.ts';
import { createProcessLauncher } from '../../src/transport/process/process-launcher.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';
import { CAN_SANDBOX, sandboxFor } from '../helpers/sandbox.ts';
import { ROOT } from './helpers.ts';

const linux = process.platform === 'linux';
/** `npm test` builds dist/ first, so under CI the bundle is always there to test. */
const BUILT = process.env.CI === 'true' || buildIsFresh(ROOT);
const BOT = 'constructive';
const FILES = ['main.cjs', 'bundle.cjs', 'code-cache.bin', 'snapshot.blob', 'snapshot.json', 'snapshot-entry.cjs'];
const DEFAULT_FLAGS = nodeOptionsFor(resolveLimits(), undefined);

/**
 * Starts `<dir>/main.cjs` as a stdio bot whose referee hangs up at once, reporting whether the boot took
 * the code cache (from the boot's exports) and the bot's first line (its hello).
 */
function start(dir: string, nodeOptions: string, wantLoaded = false): { cached: boolean; hello: { type?: string; name?: string }; loaded?: string[] } {
  const main = join(dir, 'main.cjs');
  const probe = `process.argv = [process.argv[0], ${JSON.stringify(main)}]; const r = require(process.argv[1]); process.stderr.write('cached=' + r.cached + '\\n'); process.on('exit', () => process.stderr.write('loaded=' + process.moduleLoadList.join(',') + '\\n'));`;
  const run = spawnSync(process.execPath, ['-e', probe], { env: { PATH: '/usr/bin:/bin', HOME: '/tmp', ARENA_STDIO: '1', NODE_OPTIONS: nodeOptions }, input: '', encoding: 'utf8', timeout: 60_000 });
  const first = run.stdout.split('\n')[0] ?? '';
  const loaded = /^loaded=(.*)$/m.exec(run.stderr)?.[1]?.split(',');
  return { cached: /cached=true/.test(run.stderr), hello: first ? (JSON.parse(first) as { type?: string; name?: string }) : {}, ...(wantLoaded && loaded ? { loaded } : {}) };
}

describe.runIf(BUILT)('bot code cache - a built-in bot starts from the cache its build made', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arena-code-cache-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A copy of the bot's built files, to spoil. */
  const copy = (): string => {
    const to = mkdtempSync(join(dir, 'bot-'));
    for (const f of FILES) copyFileSync(join(ROOT, 'dist', 'bots-cjs', BOT, f), join(to, f));
    return to;
  };

  it('bot code cache - every built-in bot starts from main.cjs, and its cache is taken under the default limits\' flags', () => {
    const command = builtinBotCommand(BOT, ROOT)!;
    expect(command.args).toEqual([join(ROOT, 'dist', 'bots-cjs', BOT, 'main.cjs')]);
    const got = start(join(ROOT, 'dist', 'bots-cjs', BOT), DEFAULT_FLAGS);
    expect(got).toEqual({ cached: true, hello: expect.objectContaining({ type: 'hello', name: BOT }) });
  });

  it('bot code cache - the bot (with ws in it) says hello without loading https, tls or zlib, which a ws:// dial without compression never uses', () => {
    const got = start(join(ROOT, 'dist', 'bots-cjs', BOT), DEFAULT_FLAGS, true);
    expect(got.hello.type).toBe('hello');
    expect(got.loaded).toContain('NativeModule net'); // the list is read: the stdio link itself needs net
    expect(got.loaded!.filter((m) => /^NativeModule (https|tls|zlib)$/.test(m))).toEqual([]);
  });

  it('bot code cache - refused by V8 under another heap size (other V8 flags): the plain start, still a hello', () => {
    const got = start(join(ROOT, 'dist', 'bots-cjs', BOT), '--max-old-space-size=100');
    expect(got).toEqual({ cached: false, hello: expect.objectContaining({ type: 'hello', name: BOT }) });
  });

  it('bot code cache - a cache of another build, a corrupt one, or none: never taken, the bot still says hello', () => {
    const other = copy();
    const cache = readFileSync(join(other, 'code-cache.bin'));
    const eol = cache.indexOf(10);
    // Same length, another build's id: a stale cache must not be mixed with this bundle's source.
    const id = cache.toString('latin1', 0, eol);
    writeFileSync(join(other, 'code-cache.bin'), Buffer.concat([Buffer.from(id.replace(/[0-9a-f]$/, (c) => (c === '0' ? '1' : '0')), 'latin1'), cache.subarray(eol)]));
    const corrupt = copy();
    writeFileSync(join(corrupt, 'code-cache.bin'), Buffer.concat([cache.subarray(0, eol + 1), Buffer.alloc(cache.length - eol - 1, 0x5a)]));
    const none = copy();
    unlinkSync(join(none, 'code-cache.bin'));
    const intact = copy();
    for (const [name, folder, cached] of [['other build', other, false], ['corrupt', corrupt, false], ['none', none, false], ['intact copy', intact, true]] as const) {
      expect({ name, ...start(folder, DEFAULT_FLAGS) }).toEqual({ name, cached, hello: expect.objectContaining({ type: 'hello', name: BOT }) });
    }
  });
});

describe.runIf(BUILT && linux && CAN_SANDBOX)('bot code cache - confined', () => {
  let server: ArenaServer;
  beforeAll(async () => {
    server = await startArenaServer({ authenticate: () => undefined });
  });
  afterAll(async () => {
    await server.close();
  });

  it('sandbox - a program confined as the built-in bot is can overwrite none of the files it starts from (bundle, cache, boot, startup snapshot)', async () => {
    const entry = join(ROOT, 'dist', 'bots-cjs', BOT, 'main.cjs');
    // Digests, not contents: a deep comparison of the 6 MB blob takes vitest tens of seconds.
    const digests = (): string[] => FILES.map((f) => createHash('sha256').update(readFileSync(join(ROOT, 'dist', 'bots-cjs', BOT, f))).digest('hex'));
    const before = digests();
    // Shown exactly what the built-in bot is shown (its confinement is made from its entry), it tries each
    // write, says on stderr how each went, and exits before any hello: the start's failure carries that.
    const attack = `const fs = require('node:fs'); for (const f of ${JSON.stringify(FILES)}) { const p = ${JSON.stringify(join(ROOT, 'dist', 'bots-cjs', BOT))} + '/' + f;
      try { fs.writeFileSync(p, 'evil'); console.error('WROTE ' + f); } catch (e) { console.error('REFUSED ' + f + ' ' + e.code); }
      try { fs.unlinkSync(p); console.error('REMOVED ' + f); } catch (e) { console.error('REFUSED rm ' + f + ' ' + e.code); } } process.exit(3);`;
    const launcher = createProcessLauncher({ name: 'cache-writer', command: process.execPath, args: ['-e', attack], server, stdio: true, startTimeoutMs: 60_000, confine: sandboxFor(entry) });
    const got = await launcher.connect();
    await launcher.dispose();
    expect(got.ok).toBe(false);
    const reason = got.ok ? '' : got.reason;
    for (const f of FILES) {
      expect(reason).toMatch(new RegExp(`REFUSED ${f.replace('.', '\\.')} (EROFS|EACCES)`));
      expect(reason).toMatch(new RegExp(`REFUSED rm ${f.replace('.', '\\.')} (EROFS|EACCES)`));
    }
    expect(reason).not.toMatch(/WROTE|REMOVED/);
    expect(digests()).toEqual(before);
  });
});
