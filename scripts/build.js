#!/usr/bin/env node
// Bundles the CLI, every built-in bot and the oracle's worker thread into dist/ once (at install, and
// before the tests), so a command or a bot starts by loading a few files instead of compiling TypeScript
// and resolving hundreds of modules (zod alone is 95). esbuild comes with tsx, which already runs the
// source. It type-checks nothing: `npm test` runs tsc. A failed build leaves no stamp, and then everything
// runs from source through tsx as before, so a command never runs stale code (see src/runtime/source-tree.ts).
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { botBundles } from './bot-bundles.js';
import { cliBundle } from './cli-bundle.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');
const quiet = process.argv.includes('--quiet');
rmSync(out, { recursive: true, force: true });

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.warn('arena build: esbuild is not installed (npm ci installs it); commands run from source');
  process.exit(0);
}

const bots = readdirSync(join(root, 'bots')).filter((b) => existsSync(join(root, 'bots', b, 'main.ts')));
// Each entry keeps its source path under dist/ (bots/<name>/main.js), except the oracle's thread, which the
// oracle finds at dist/oracle-worker.js wherever its own code was bundled.
const entryPoints = [
  'src/cli/main.ts',
  // bin/arena.js asks it whether the bundle is fresh before loading anything else.
  'src/runtime/source-tree.ts',
  'bots/ida-star/prepare.ts',
  // The default limits' NODE_OPTIONS, which the bots' code caches are made under (bot-bundles.js).
  'src/transport/process/bot-limits.ts',
  ...bots.map((b) => `bots/${b}/main.ts`),
].map((p) => ({ in: join(root, p), out: p.replace(/\.ts$/, '') }));
entryPoints.push({ in: join(root, 'src/solvers/sliding/oracle-worker.ts'), out: 'oracle-worker' });

const started = Date.now();
try {
  await esbuild.build({
    entryPoints,
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Native or optional modules load from node_modules as they are.
    external: ['better-sqlite3', 'pg-native'],
    // Bundled CommonJS packages (pg, commander) call require(); give the ES modules one.
    banner: { js: "import { createRequire as __arenaRequire } from 'node:module'; const require = __arenaRequire(import.meta.url);" },
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });
} catch {
  console.warn('arena build: the bundle failed (above); commands run from source until it succeeds');
  process.exit(process.argv.includes('--strict') ? 1 : 0);
}
mkdirSync(out, { recursive: true });
const limits = await import(pathToFileURL(join(out, 'src', 'transport', 'process', 'bot-limits.js')).href);
const slow = await botBundles({ esbuild, root, out, bots, nodeOptions: limits.nodeOptionsFor(limits.resolveLimits(), undefined) });
if (slow.length) console.warn(`arena build: these bots start without their fast path: ${slow.join('; ')}`);
const cliSlow = await cliBundle({ esbuild, root, out, build: randomBytes(8).toString('hex') });
if (cliSlow) console.warn(`arena build: the command line starts without its fast path (${cliSlow})`);
writeFileSync(join(out, '.build-stamp'), `${new Date().toISOString()}\n`);
if (!quiet) console.log(`arena build: bundled ${entryPoints.length} entry points into dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
