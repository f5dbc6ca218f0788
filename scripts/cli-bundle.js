// The command line as one CommonJS file with a V8 code cache, as the built-in bots start (bot-bundles.js):
// dist/cli-cjs/bundle.cjs (the whole CLI; its commands' dynamic imports become parts of the one file, run
// only when a command asks for them), main.cjs (scripts/bot-boot.cjs: runs the bundle from the cache) and
// code-cache.bin (made by running `arena match --help` once, which evaluates every module a match loads).
// bin/arena.js starts main.cjs where it exists and the build is fresh, else the ES modules of dist/src/cli.
// Why: Node 20 has no code cache for ES modules, and compiling a match's 2 MB of modules at every command
// was about 60 ms of the 160 ms of CPU a `match --help` took (bench/cli.ts has both starts). A CLI that
// cannot be bundled so, or whose cache cannot be made, keeps the ES-module start; never a broken one.
import { execFile } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { botBundleOptions } from './bot-bundles.js';

const run = promisify(execFile);

/**
 * Bundles src/cli/main.ts into `out`/cli-cjs/ with the id `build` and makes its code cache. Resolves to why
 * the fast start could not be made, or undefined.
 */
export async function cliBundle({ esbuild, root, out, build }) {
  const dir = join(out, 'cli-cjs');
  try {
    // As a bot's bundle (import.meta.url is the bundle's own URL; every path is found from the project root),
    // without a bot's lazy builtins: a command may well dial wss:// or compress.
    await esbuild.build({ ...botBundleOptions(build), plugins: [], entryPoints: [join(root, 'src', 'cli', 'main.ts')], outfile: join(dir, 'bundle.cjs') });
    copyFileSync(join(root, 'scripts', 'bot-boot.cjs'), join(dir, 'main.cjs'));
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    return `no one-file bundle: ${e?.errors?.[0]?.text ?? e}`;
  }
  try {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
    await run(process.execPath, [join(root, 'scripts', 'make-code-cache.cjs'), join(dir, 'main.cjs'), join(dir, 'code-cache.bin'), build, 'match', '--help'], { env, cwd: root, timeout: 60_000 });
  } catch (e) {
    return `no code cache: ${String(e?.stderr || e?.message || e).split('\n')[0]}`;
  }
  return undefined;
}
