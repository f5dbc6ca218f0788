import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareAssets } from '../../src/app/bots/prepare-assets.ts';

const dirs: string[] = [];
const temp = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const SMALL = { classes: ['sliding 3x3'], estimatedSeconds: 1, tables: { rows: 3, cols: 3, partition: [[1, 2, 3, 4], [5, 6, 7, 8]] } };

/** A project root with built-in bots a and b declaring the same 3×3 tables, and c declaring none. */
function project(): string {
  const root = temp('arena-prepare-root-');
  for (const [bot, declared] of [['a', true], ['b', true], ['c', false]] as const) {
    mkdirSync(join(root, 'bots', bot), { recursive: true });
    writeFileSync(join(root, 'bots', bot, 'main.ts'), '');
    if (declared) writeFileSync(join(root, 'bots', bot, 'assets.json'), JSON.stringify({ assets: [{ id: 'small', what: `${bot}'s tables`, ...SMALL }] }));
  }
  return root;
}

describe('prepare assets', () => {
  it('prepare assets - --all builds a table two bots share once, and a bot that declares nothing is named', async () => {
    const projectRoot = project();
    const dir = join(temp('arena-prepare-store-'), 'pdb');
    const parts: string[] = [];
    const r = await prepareAssets({ projectRoot, dir, bots: [], all: true, threads: 2, onPart: (p) => parts.push(`${p.kept ? 'kept' : 'built'} ${p.part.file}`) });
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.assets.map((a) => [a.bot, a.status])).toEqual([['a', 'ready'], ['b', 'ready']]);
    const files = readdirSync(dir).sort();
    expect(parts.sort()).toEqual(files.map((f) => `built ${f}`));
    const named = await prepareAssets({ projectRoot, dir, bots: ['c', 'a'], threads: 1 });
    if (!named.ok) throw new Error(named.reason);
    expect(named.value.nothingToDo).toEqual(['c']);
    expect(named.value.assets[0]).toMatchObject({ bot: 'a', status: 'ready', built: [], kept: files });
  });

  it('prepare assets - names and --all together, neither, or an unknown bot are refused with the way out', async () => {
    const projectRoot = project();
    const dir = temp('arena-prepare-store-');
    const reason = async (o: { bots: string[]; all?: boolean }): Promise<string> => {
      const r = await prepareAssets({ projectRoot, dir, threads: 1, ...o });
      return r.ok ? 'accepted' : r.reason;
    };
    expect(await reason({ bots: ['a'], all: true })).toBe('name bots or give --all, not both');
    expect(await reason({ bots: [] })).toMatch(/name the built-in bots to prepare .* or give --all/);
    expect(await reason({ bots: ['aa'] })).toMatch(/aa is not a built-in bot/);
  });

  it('prepare assets - interrupted before it starts, it builds nothing and says which tables are missing', async () => {
    const projectRoot = project();
    const dir = temp('arena-prepare-store-');
    const stop = new AbortController();
    stop.abort();
    const r = await prepareAssets({ projectRoot, dir, bots: ['a'], threads: 1, signal: stop.signal });
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.assets[0]).toMatchObject({ status: 'interrupted', built: [], kept: [] });
    expect(r.value.assets[0]!.missing.length).toBeGreaterThan(0);
    expect(readdirSync(dir)).toEqual([]);
  });
});
