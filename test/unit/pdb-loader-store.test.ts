import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PdbLoader } from '../../bots/shared/pdb-loader.ts';

const tmp = mkdtempSync(join(tmpdir(), 'arena-loader-store-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('pdb loader', () => {
  it('pdb loader - where the store cannot be written (a confined bot) it builds nothing, says so and names arena prepare', async () => {
    // A folder under a plain file can be neither made nor written, whoever runs the test (root included).
    writeFileSync(join(tmp, 'plain-file'), '');
    const dir = join(tmp, 'plain-file', 'pdb');
    const lines: string[] = [];
    const loader = new PdbLoader(dir, (l) => lines.push(l), 2, 3, [[1, 2, 3], [4, 5]]);
    expect(loader.get()).toBeNull();
    // No build was started: ready() returns at once, still without tables.
    expect(await loader.ready(5_000)).toBeNull();
    expect(lines).toEqual([`no 2x3 pattern databases in ${dir}, which this bot cannot write (confined); playing without them: arena prepare builds them`]);
    expect(existsSync(dir)).toBe(false);
  });
});
