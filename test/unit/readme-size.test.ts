import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blocksUnder } from '../helpers/markdown.ts';

// The README is what a newcomer skims: it stays short, and its Quick start stays the two commands that
// .ci/run and a fresh machine run (everything longer belongs in docs/).

const README = readFileSync(join(resolve(import.meta.dirname, '../..'), 'README.md'), 'utf8');

describe('readme', () => {
  it('readme - at most 250 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('readme - the Quick start is exactly the install-and-match and the install-and-test commands, one line each', () => {
    const blocks = blocksUnder(README, 'Quick start');
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.code).toBe('npm ci && npx arena match ida-star constructive --puzzle sliding --size 4\nnpm ci && npm test\n');
  });
});
