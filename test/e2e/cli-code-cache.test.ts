/**
 * The command line's fast start (scripts/cli-bundle.js, scripts/bot-boot.cjs): bin/arena.js runs the one-file
 * CommonJS bundle of the CLI from the V8 code cache the build made, with real Node processes; a cache of
 * another build leaves the plain start, which still runs the command; and the bundle plays a real match
 * (the oracle's thread and the bot found from the project root, as from the ES modules).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIsFresh } from '../../src/runtime/source-tree.ts';
import { ROOT } from './helpers.ts';

/** `npm test` builds dist/ first, so under CI the bundle is always there to test. */
const BUILT = process.env.CI === 'true' || buildIsFresh(ROOT);
const DIR = join(ROOT, 'dist', 'cli-cjs');
const temp = mkdtempSync(join(tmpdir(), 'arena-cli-cache-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Runs `<dir>/main.cjs` with `args` as `arena` would, saying whether the boot took the code cache. */
function start(dir: string, args: readonly string[]): { cached: boolean; stdout: string; status: number | null } {
  const main = join(dir, 'main.cjs');
  const probe = `process.argv = [process.argv[0], 'arena', ...${JSON.stringify(args)}]; const r = require(${JSON.stringify(main)}); process.on('exit', () => process.stderr.write('cached=' + r.cached + '\\n'));`;
  const run = spawnSync(process.execPath, ['-e', probe], { cwd: ROOT, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: temp }, encoding: 'utf8', timeout: 60_000 });
  return { cached: /cached=true/.test(run.stderr), stdout: run.stdout, status: run.status };
}

describe.runIf(BUILT)('cli code cache - the command line starts from one bundle and its V8 code cache', () => {
  it('bin/arena.js loads the one-file bundle, whose boot takes the cache the build made', () => {
    const traced = spawnSync(process.execPath, [join(ROOT, 'bin', 'arena.js'), '--version'], { cwd: ROOT, env: { ...process.env, NODE_DEBUG: 'module' }, encoding: 'utf8', timeout: 60_000 });
    expect(traced.stdout.trim()).toBe('0.1.0');
    expect(traced.stderr).toContain(join('dist', 'cli-cjs', 'main.cjs'));
    const r = start(DIR, ['--version']);
    expect(r.stdout.trim()).toBe('0.1.0');
    expect(r.cached).toBe(true);
  });

  it('a cache of another build is not taken, and the command still runs', () => {
    const copy = join(temp, 'other-build');
    mkdirSync(copy);
    for (const f of ['main.cjs', 'bundle.cjs']) copyFileSync(join(DIR, f), join(copy, f));
    const cache = readFileSync(join(DIR, 'code-cache.bin'));
    const eol = cache.indexOf(10);
    writeFileSync(join(copy, 'code-cache.bin'), Buffer.concat([Buffer.from('arena-code-cache 0000000000000000\n'), cache.subarray(eol + 1)]));
    const r = start(copy, ['--version']);
    expect(r.stdout.trim()).toBe('0.1.0');
    expect(r.cached).toBe(false);
  });

  it('the bundle plays a real match: the bot, the database and the oracle are found from the project root', () => {
    const scrambles = join(temp, 'one.jsonl');
    // A 4×4 board one move from the goal: the oracle's thread (dist/oracle-worker.js) proves the optimum.
    writeFileSync(scrambles, `${JSON.stringify({ kind: 'sliding', rows: 4, cols: 4, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15] })}\n`);
    const db = join(temp, 'match.db');
    const r = start(DIR, ['match', 'constructive', '--scrambles', scrambles, '--db', db, '--json', '--quiet', '--no-sandbox']);
    expect(r.status, r.stdout).toBe(0);
    const report = JSON.parse(r.stdout) as { match: { status: string }; results: Array<{ verdict: string }>; scrambles: Array<{ optimal?: number }> };
    expect(report.match.status).toBe('finished');
    expect(report.results.map((x) => x.verdict)).toEqual(['solved']);
    expect(report.scrambles[0]?.optimal).toBe(1);
    expect(r.cached).toBe(true);
  });
});
