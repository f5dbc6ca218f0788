// Each built-in bot as one CommonJS file with a V8 code cache, for the fastest start (measured in
// bench/bot-start.ts; notes/start.md), in a folder of its own, dist/bots-cjs/<name>/: bundle.cjs (no chunk graph to resolve),
// code-cache.bin (made by starting the bot once, up to its hello: scripts/make-code-cache.cjs) and
// main.cjs (scripts/bot-boot.cjs, which runs the bundle from the cache), and a startup snapshot of the SDK
// (snapshot.blob and snapshot.json: scripts/bot-snapshot.js). The arena starts from the snapshot or main.cjs where
// it exists (src/transport/process/builtin-bots.ts), else the ES module dist/bots/<name>/main.js. The folder
// holds nothing else, so the sandbox, which shows a project bot the folders its entry's folder imports
// from (src/sandbox/code-mounts.ts), reads and shows no more than it (not dist/chunks).
// A bot that cannot be bundled so, or whose cache cannot be made, keeps the slower start; never a broken one.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { botSnapshot } from './bot-snapshot.js';

const run = promisify(execFile);

/** The line of a failed step that says why (a child's stderr may hold Node's warnings first). */
function firstError(e) {
  const lines = String(e?.stderr || e?.message || e).split('\n');
  return lines.find((l) => /Error|error:/.test(l)) ?? lines[0];
}

/**
 * `ws` loads https, tls and zlib when it is loaded, for wss:// and compression, which a bot dialling the
 * referee's ws:// without compression never uses; together they were about half a bot's start-up CPU
 * (bench/_start-stages.ts). In a bot's bundle ws gets each of `names` as an object that loads the real
 * module on first use, so wss:// still works, at its own first use.
 */
export function lazyBuiltins(names = ['https', 'tls', 'zlib']) {
  const filter = new RegExp(`^(${names.join('|')})$`);
  return {
    name: 'lazy-builtins',
    setup(b) {
      b.onResolve({ filter }, (a) => (/[\\/]node_modules[\\/]ws[\\/]/.test(a.importer) ? { path: a.path, namespace: 'lazy-builtin' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (a) => ({
        contents: `let real; const load = () => (real ??= require('node:${a.path}'));
module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });`,
        loader: 'js',
      }));
    },
  };
}

/** esbuild's options for a bot's one-file CommonJS bundle of build `build` (its id on the first line). */
export function botBundleOptions(build) {
  return {
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['better-sqlite3', 'pg-native'],
    // Less to read; identifiers stay, so a crash's stack still names its functions.
    minifyWhitespace: true,
    minifySyntax: true,
    // The sources are ES modules: import.meta.url is the bundle's own URL, as in dist/bots/<name>/main.js.
    define: { 'import.meta.url': '__arenaUrl' },
    banner: { js: `// arena-build ${build}\n"use strict";\nconst __arenaUrl = require('node:url').pathToFileURL(__filename).href;` },
    logLevel: 'silent',
    plugins: [lazyBuiltins()],
  };
}

/**
 * Bundles `bots` (names under bots/) into `out`/bots-cjs/<name>/ and makes their code caches under
 * `nodeOptions` (what a bot gets under the default limits: V8 refuses a cache made under other flags).
 * Resolves to the names that got no fast start, each with why.
 */
export async function botBundles({ esbuild, root, out, bots, nodeOptions }) {
  // One id per build, in the bundle's first line and the cache's: a cache is only ever read with its own bundle.
  const build = randomBytes(8).toString('hex');
  const failed = [];
  const bundled = [];
  await Promise.all(
    bots.map(async (name) => {
      const dir = join(out, 'bots-cjs', name);
      try {
        await esbuild.build({ ...botBundleOptions(build), entryPoints: [join(root, 'bots', name, 'main.ts')], outfile: join(dir, 'bundle.cjs') });
        copyFileSync(join(root, 'scripts', 'bot-boot.cjs'), join(dir, 'main.cjs'));
        bundled.push(name);
      } catch (e) {
        failed.push(`${name} (no one-file bundle: ${e?.errors?.[0]?.text ?? e})`);
      }
    }),
  );
  // Two at a time: each is a short Node start, and the build may share the machine.
  const queue = [...bundled];
  const maker = join(root, 'scripts', 'make-code-cache.cjs');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp', ARENA_STDIO: '1', NODE_OPTIONS: nodeOptions };
  await Promise.all(
    [0, 1].map(async () => {
      for (let name = queue.shift(); name; name = queue.shift()) {
        const dir = join(out, 'bots-cjs', name);
        try {
          const made = run(process.execPath, [maker, join(dir, 'main.cjs'), join(dir, 'code-cache.bin'), build], { env, cwd: dir, timeout: 30_000 });
          made.child.stdin.end(); // the end of the referee's stream: the bot stops after its hello
          await made;
        } catch (e) {
          failed.push(`${name} (no code cache: ${firstError(e)})`);
        }
        try {
          await botSnapshot({ esbuild, root, dir, name, build, env: { PATH: env.PATH, HOME: env.HOME, NODE_OPTIONS: nodeOptions } });
        } catch (e) {
          failed.push(`${name} (no startup snapshot: ${firstError(e)})`);
        }
      }
    }),
  );
  return failed;
}
