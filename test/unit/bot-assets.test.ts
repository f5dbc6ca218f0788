import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assetReady, declaredAssets, missingAssetLine, missingAssetNotices } from '../../src/app/bots/bot-assets.ts';
import { PARTITION_4X4, PARTITION_5X5, partitionBytes } from '../../src/solvers/sliding/pdb-set.ts';
import { pdbFileName, savePdb } from '../../src/solvers/sliding/pdb-cache.ts';
import { partIntact, partPresent, removeStaleTemps } from '../../src/solvers/tables/table-parts.ts';
import { ROOT } from '../e2e/helpers.ts';

const dirs: string[] = [];
const temp = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A project root holding one built-in bot `name` with the declaration `json` (text, as a file would hold it). */
function projectWith(name: string, json: string): string {
  const root = temp('arena-assets-root-');
  mkdirSync(join(root, 'bots', name), { recursive: true });
  writeFileSync(join(root, 'bots', name, 'main.ts'), '');
  writeFileSync(join(root, 'bots', name, 'assets.json'), json);
  return root;
}

const asset = (over: Record<string, unknown> = {}) => ({
  id: 'small',
  what: 'its small tables',
  classes: ['sliding 3x3'],
  estimatedSeconds: 2,
  tables: { rows: 3, cols: 3, partition: [[1, 2, 3, 4], [5, 6, 7, 8]] },
  ...over,
});

describe('bot assets', () => {
  it('bot assets - pdb-beam and ida-star declare exactly the partitions they load, at their real size', () => {
    const beam = declaredAssets(ROOT, 'pdb-beam');
    const ida = declaredAssets(ROOT, 'ida-star');
    if (!beam.ok || !ida.ok) throw new Error('declarations do not parse');
    const five = beam.value.find((a) => a.classes.includes('sliding 5x5'))!;
    // The files the bot reads (pdb-set.ts's partitions), so a declaration cannot drift from the bot.
    expect(five.parts.map((p) => p.file).sort()).toEqual(['sliding-5x5-1-2-3-6-7-8.pdb', 'sliding-5x5-13-18-19-20-23-24.pdb']);
    expect(five.parts.map((p) => p.tiles)).toEqual(expect.arrayContaining([PARTITION_5X5[0], PARTITION_5X5[3]]));
    expect(five.bytes).toBe(partitionBytes(5, 5, PARTITION_5X5) + 2 * 48);
    expect(missingAssetLine(five)).toBe('pdb-beam: its 24-puzzle tables are not built (255 MB, about 12 min on 2 cores): run arena prepare pdb-beam');
    const four = ida.value[0]!;
    expect(four.parts.map((p) => p.file)).toEqual(PARTITION_4X4.map((t) => pdbFileName(4, 4, t)));
    expect(four.bytes).toBe(partitionBytes(4, 4, PARTITION_4X4) + 3 * 48);
    expect(declaredAssets(ROOT, 'constructive')).toEqual({ ok: true, value: [] });
  });

  it('bot assets - a declaration with an unknown key, a tile off the board, a repeated tile, a twice-declared id or a control character is refused by file and reason', () => {
    const refused = (json: unknown): string => {
      const r = declaredAssets(projectWith('b', JSON.stringify(json)), 'b');
      if (r.ok) throw new Error('accepted');
      return r.reason;
    };
    expect(refused({ assets: [asset({ build: 'make' })] })).toMatch(/assets\.json: assets\.0: Unrecognized key.*build/);
    expect(refused({ assets: [asset({ tables: { rows: 3, cols: 3, partition: [[1, 9]] } })] })).toMatch(/distinct tiles of a 3x3 board/);
    expect(refused({ assets: [asset({ tables: { rows: 3, cols: 3, partition: [[1, 2], [2, 3]] } })] })).toMatch(/distinct tiles/);
    expect(refused({ assets: [asset(), asset()] })).toMatch(/asset small is declared twice/);
    // Said on a line of its own: a newline or an escape in what it is or its classes could forge another line.
    expect(refused({ assets: [asset({ what: 'its tables\narena: all tables built' })] })).toMatch(/assets\.0\.what: no control characters/);
    expect(refused({ assets: [asset({ classes: ['sliding 3x3\u001b[2K'] })] })).toMatch(/assets\.0\.classes\.0: no control characters/);
    const notJson = declaredAssets(projectWith('c', '{"assets": ['), 'c');
    expect(notJson.ok ? '' : notJson.reason).toMatch(/assets\.json: not JSON/);
  });

  it('bot assets - a match is told of a missing asset for its class only, and a truncated table counts as missing', () => {
    const root = projectWith('small-bot', JSON.stringify({ assets: [asset()] }));
    const store = temp('arena-assets-store-');
    const line = 'small-bot: its small tables are not built (6 kB, about 2 s on 2 cores): run arena prepare small-bot';
    expect(missingAssetNotices(root, store, ['small-bot --flag'], ['sliding 3x3'])).toEqual([line]);
    expect(missingAssetNotices(root, store, ['small-bot'], ['sliding 4x4'])).toEqual([]);
    expect(missingAssetNotices(root, store, ['someone-else'], ['sliding 3x3'])).toEqual([]);
    const declared = declaredAssets(root, 'small-bot');
    if (!declared.ok) throw new Error(declared.reason);
    const [a] = declared.value;
    for (const p of a!.parts) savePdb(store, p.rows, p.cols, p.tiles, new Uint8Array(p.entries));
    expect(assetReady(store, a!)).toBe(true);
    expect(missingAssetNotices(root, store, ['small-bot'], ['sliding 3x3'])).toEqual([]);
    // Cut one table short: present by name, not by size.
    const p0 = a!.parts[0]!;
    writeFileSync(join(store, p0.file), new Uint8Array(p0.bytes - 1));
    expect(partPresent(store, p0)).toBe(false);
    expect(missingAssetNotices(root, store, ['small-bot'], ['sliding 3x3'])).toEqual([line]);
    // The right size but other bytes: present by size (what a match start checks), not intact (what prepare checks).
    writeFileSync(join(store, p0.file), new Uint8Array(p0.bytes));
    expect(partPresent(store, p0)).toBe(true);
    expect(partIntact(store, p0)).toBe(false);
  });

  it('bot assets - a broken declaration is named at the match, which plays on', () => {
    const root = projectWith('broken', '{"assets": 3}');
    expect(missingAssetNotices(root, temp('arena-assets-store-'), ['broken'], ['sliding 3x3'])).toEqual([expect.stringMatching(/^broken: .*assets\.json: assets: /)]);
  });

  it('bot assets - the temporary file of a build whose process is gone is removed, a live one is left', () => {
    const store = temp('arena-assets-temps-');
    // A pid above the kernel's largest (2^22) is never alive.
    const dead = 2 ** 30 - 7;
    writeFileSync(join(store, `sliding-3x3-1-2.pdb.${dead}.1.tmp`), 'x');
    writeFileSync(join(store, `sliding-3x3-1-2.pdb.${process.pid}.2.tmp`), 'x');
    expect(removeStaleTemps(store)).toBe(1);
    expect(readdirSync(store)).toEqual([`sliding-3x3-1-2.pdb.${process.pid}.2.tmp`]);
  });
});
