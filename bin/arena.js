#!/usr/bin/env node
// Runs the CLI compiled at install (dist/, see scripts/build.js) when that build is newer than every source
// file; otherwise the TypeScript source through tsx, so `npx arena` always runs the code that is there.
// Compiled, it starts from the one-file CommonJS bundle and its V8 code cache (scripts/cli-bundle.js) where
// the build made one, else from the ES modules.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const compiled = await import('../dist/src/runtime/source-tree.js').then(
  (m) => m.buildIsFresh(fileURLToPath(new URL('..', import.meta.url))),
  () => false,
);
const oneFile = fileURLToPath(new URL('../dist/cli-cjs/main.cjs', import.meta.url));
if (compiled && existsSync(oneFile)) {
  createRequire(import.meta.url)(oneFile);
} else if (compiled) {
  await import('../dist/src/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
