#!/usr/bin/env node
// Runs the CLI compiled at install (dist/, see scripts/build.js) when that build is newer than every source
// file; otherwise the TypeScript source through tsx, so `npx arena` always runs the code that is there.
import { fileURLToPath } from 'node:url';

const compiled = await import('../dist/src/runtime/source-tree.js').then(
  (m) => m.buildIsFresh(fileURLToPath(new URL('..', import.meta.url))),
  () => false,
);
if (compiled) {
  await import('../dist/src/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
