import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIsFresh, compiledPath, projectRootOf, runsCompiled } from '../../src/runtime/source-tree.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A project with one source file, one bot and a build whose stamp is `stampAge` seconds older than `now`. */
function project(sourceAge: number, stampAge: number | undefined): string {
  const root = mkdtempSync(join(tmpdir(), 'arena-tree-'));
  dirs.push(root);
  writeFileSync(join(root, 'package.json'), '{}');
  mkdirSync(join(root, 'src', 'cli'), { recursive: true });
  mkdirSync(join(root, 'bots', 'b'), { recursive: true });
  mkdirSync(join(root, 'dist', 'bots', 'b'), { recursive: true });
  const now = Date.now() / 1000;
  for (const f of ['src/cli/main.ts', 'bots/b/main.ts']) {
    writeFileSync(join(root, f), '');
    utimesSync(join(root, f), now - 100, now - 100);
  }
  utimesSync(join(root, 'bots/b/main.ts'), now - sourceAge, now - sourceAge);
  writeFileSync(join(root, 'dist/bots/b/main.js'), '');
  if (stampAge !== undefined) {
    writeFileSync(join(root, 'dist/.build-stamp'), '');
    utimesSync(join(root, 'dist/.build-stamp'), now - stampAge, now - stampAge);
  }
  return root;
}

describe('source tree', () => {
  it('buildIsFresh - a build newer than every source is fresh; an edit after it, or no stamp, is not', () => {
    expect(buildIsFresh(project(100, 50))).toBe(true);
    expect(buildIsFresh(project(10, 50))).toBe(false); // a bot edited after the build
    expect(buildIsFresh(project(100, undefined))).toBe(false); // a failed or missing build
  });

  it('compiledPath - the bundled file of a source only when the build is fresh and has it', () => {
    const fresh = project(100, 50);
    expect(compiledPath(fresh, 'bots/b/main.ts')).toBe(join(fresh, 'dist/bots/b/main.js'));
    expect(compiledPath(fresh, 'bots/none/main.ts')).toBeUndefined();
    expect(compiledPath(project(10, 50), 'bots/b/main.ts')).toBeUndefined();
  });

  it('projectRootOf - the nearest package.json above a module, from source and from dist alike', () => {
    const root = project(100, 50);
    expect(projectRootOf(pathToFileURL(join(root, 'src/cli/main.ts')).href)).toBe(root);
    expect(projectRootOf(pathToFileURL(join(root, 'dist/bots/b/main.js')).href)).toBe(root);
    expect(runsCompiled(pathToFileURL(join(root, 'dist/bots/b/main.js')).href)).toBe(true);
    expect(runsCompiled(pathToFileURL(join(root, 'bots/b/main.ts')).href)).toBe(false);
  });
});
