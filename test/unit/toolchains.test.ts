import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findToolchains } from '../../src/sandbox/build/toolchains.ts';

let bin: string;

function program(name: string, script: string): void {
  writeFileSync(join(bin, name), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, name), 0o755);
}

beforeAll(() => {
  bin = mkdtempSync(join(tmpdir(), 'arena-toolchains-'));
  program('gcc', 'echo "gcc (Test) 1.2.3"; echo "Copyright"');
  program('java', 'echo "openjdk version \\"1.8.0\\"" >&2');
  program('go', '[ "$1" = version ] && echo "go version go1.22 linux/amd64" || exit 2');
  program('node', 'echo; echo "  v99.0.0  "');
  writeFileSync(join(bin, 'make'), 'not executable');
});
afterAll(() => rmSync(bin, { recursive: true, force: true }));

describe('findToolchains', () => {
  it('toolchains - each found program with the first line it prints about its version, in the listed order', () => {
    expect(findToolchains(bin)).toEqual([
      { name: 'gcc', version: 'gcc (Test) 1.2.3' },
      { name: 'node', version: 'v99.0.0' },
      { name: 'java', version: 'openjdk version "1.8.0"' },
      { name: 'go', version: 'go version go1.22 linux/amd64' },
    ]);
  });

  it('toolchains - a name not on the path, or not executable, is not listed', () => {
    expect(findToolchains(bin, ['make', 'rustc'])).toEqual([]);
  });
});
