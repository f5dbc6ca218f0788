/**
 * `arena prepare` end to end, with real processes, real files and the real sandbox, on a SMALL asset (a
 * bot in a copy of the checkout declaring three 5-tile 4×4 patterns, two tables read through a symmetry, seconds to build; the 255 MB of the
 * 24-puzzle cannot be built in CI): it builds; interrupted with SIGINT it keeps the tables it finished and
 * the next run builds only the rest; a match names the missing asset and the command before anything
 * plays; a confined bot reads what was built and cannot write it.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arenaIn, checkoutCopy, TINY_MISSING_LINE, type Ran } from '../helpers/asset-checkout.ts';
import { CAN_SANDBOX } from '../helpers/sandbox.ts';

let root: string;
let work: string;

/** Runs the copy's `arena` with the asset store `store` (see arenaIn). */
const arena = (args: string[], store: string, onStderr?: Parameters<typeof arenaIn>[4], umask?: string): Promise<Ran> => arenaIn(root, work, args, store, onStderr, umask);

const tables = (store: string): string[] => readdirSync(store).filter((n) => n.endsWith('.pdb')).sort();
const identity = (file: string): string => {
  const st = statSync(file);
  return `${st.ino}:${st.mtimeMs}`;
};

beforeAll(() => {
  root = checkoutCopy();
  work = mkdtempSync(join(tmpdir(), 'arena-prepare-work-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('arena prepare', () => {
  it('prepare - builds the declared tables; after SIGINT mid-build it keeps the finished ones and the rerun builds only the rest', async () => {
    const store = join(work, 'store-resume');
    let interrupted = false;
    // One thread: the tables are built one after another, so the first "built" line leaves others unbuilt.
    const first = await arena(['prepare', 'tiny-tables', '--threads', '1'], store, (err, child) => {
      if (!interrupted && /built sliding-4x4-\S+\.pdb/.test(err)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    expect(first.code, first.stderr).toBe(130);
    expect(first.stdout).toMatch(/tiny-tables: its test tables \(tiny-4x4-tables, 1\.0 MB\): interrupted, 1 of 2 tables not built; run the same command again/);
    const finished = tables(store);
    expect(finished).toHaveLength(1);
    const before = new Map(finished.map((f) => [f, identity(join(store, f))]));

    const second = await arena(['prepare', 'tiny-tables', '--json'], store);
    expect(second.code, second.stderr).toBe(0);
    const out = JSON.parse(second.stdout) as { assets: { status: string; built: string[]; kept: string[]; missing: string[] }[] };
    expect(out.assets).toHaveLength(1);
    const [a] = out.assets;
    expect(a.status).toBe('ready');
    expect(a.kept.sort()).toEqual(finished);
    expect(a.built).toHaveLength(1);
    expect(a.missing).toEqual([]);
    // The kept tables were not written again: the same files, untouched.
    for (const [f, id] of before) expect(identity(join(store, f))).toBe(id);
    expect(tables(store)).toHaveLength(2);
    expect(readdirSync(store).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    // A third run finds everything intact and builds nothing.
    const third = await arena(['prepare', 'tiny-tables', '--json'], store);
    expect(JSON.parse(third.stdout).assets[0]).toMatchObject({ status: 'ready', built: [], missing: [] });
  }, 240_000);

  it('prepare - a table of the right name but corrupt is built again, never counted as ready', async () => {
    const store = join(work, 'store-corrupt');
    expect((await arena(['prepare', 'tiny-tables'], store)).code).toBe(0);
    const victim = tables(store)[0]!;
    const bytes = statSync(join(store, victim)).size;
    // Same length, other bytes: only the checksum can tell.
    writeFileSync(join(store, victim), Buffer.alloc(bytes, 7));
    const again = await arena(['prepare', 'tiny-tables', '--json'], store);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).assets[0].built).toEqual([victim]);
  }, 240_000);

  it('prepare - a match names a bot whose asset is missing, and the command, before anything plays', async () => {
    const store = join(work, 'store-empty');
    mkdirSync(store, { recursive: true });
    const r = await arena(['match', 'tiny-tables', '--puzzle', 'sliding', '--size', '4', '--walk', '12', '--count', '1', '--json', '--db', join(work, 'missing.db')], store);
    const line = TINY_MISSING_LINE;
    expect(r.stderr).toContain(line);
    expect(r.stderr.indexOf(line)).toBeLessThan(r.stderr.indexOf('match 1:'));
    // And the bot without its tables does not solve (it says why), where with them it does (the last test).
    const played = JSON.parse(r.stdout) as { results: { verdict: string; error?: string }[] };
    expect(played.results.map((x) => x.verdict)).not.toContain('solved');
    expect(JSON.stringify(played.results[0])).toMatch(/no intact tables/);
    // No line for a class the asset is not for.
    const other = await arena(['match', 'constructive', '--puzzle', 'sliding', '--size', '4', '--count', '1', '--db', join(work, 'other.db')], store);
    expect(other.stderr).not.toContain('are not built');
  }, 240_000);

  it.runIf(CAN_SANDBOX)('prepare - a confined bot reads the tables prepare built, and every write to the store is refused', async () => {
    const store = join(work, 'store-confined');
    // Under a umask that would hide files from other users: the bot runs as a uid of its own, and must still read them.
    expect((await arena(['prepare', 'tiny-tables'], store, undefined, '077')).code).toBe(0);
    const before = tables(store).map((f) => identity(join(store, f)));
    const r = await arena(['match', 'tiny-tables', '--puzzle', 'sliding', '--size', '4', '--walk', '16', '--count', '2', '--json', '--db', join(work, 'confined.db')], store);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('are not built');
    const report = JSON.parse(r.stdout) as { match: { config?: { unconfined?: boolean } }; results: { verdict: string; error?: string }[] };
    expect(report.results.map((x) => `${x.verdict}${x.error ? `: ${x.error}` : ''}`)).toEqual(['solved', 'solved']);
    expect(tables(store).map((f) => identity(join(store, f)))).toEqual(before);
    expect(readdirSync(store)).not.toContain('planted.pdb');
  }, 240_000);
});
