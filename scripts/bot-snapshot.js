// A built-in bot's Node startup snapshot (node --build-snapshot, Node 20), made by scripts/bot-bundles.js
// beside the bot's bundle in dist/bots-cjs/<name>/: snapshot.blob holds the SDK already loaded (zod's
// schemas built, ws, net, crypto, stream, readline evaluated), so a bot started as
// `node --snapshot-blob snapshot.blob main.cjs [flags]` runs only its own module (flags, tables, runBot)
// at start. Measured: about 25 ms less CPU per start than the code cache alone (notes/snap.md).
//
// What a snapshot cannot hold in Node 20, so stays out of it: `http` (its parser binding cannot be
// serialised: V8 aborts the build), loaded by ws at its first dial instead (ws's own use of http at load,
// websocketMask, is absent from Node 20's http, so that import is an empty object here: checked below);
// https, tls and zlib as in the bundle; worker_threads (a Worker then fails in the started bot), which only
// the bots' own modules load, at run time. The bot's own module runs at run time, never at build time, so
// it reads its argv and ARENA_URL/ARENA_TOKEN/ARENA_STDIO from the start's environment.
//
// snapshot.json says for which Node binary and which NODE_OPTIONS the blob was made: Node refuses a blob
// made by another binary or under other V8 flags (exit 14), so the arena uses it only when both match
// (src/transport/process/builtin-bots.ts), else main.cjs as before.
import { execFile } from 'node:child_process';
import { renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { botBundleOptions, lazyBuiltins } from './bot-bundles.js';

const run = promisify(execFile);

/** In ws's buffer-util only, `http` is an empty object (Node 20's http has no websocketMask to take). */
const noMaskHttp = {
  name: 'no-mask-http',
  setup(b) {
    b.onResolve({ filter: /^http$/ }, (a) => (/[\\/]ws[\\/]lib[\\/]buffer-util\.js$/.test(a.importer) ? { path: 'http', namespace: 'no-mask-http' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'no-mask-http' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

/** Built-in modules that must not be in the snapshot (see above): the build refuses one that loaded them. */
const KEPT_OUT = ['http', 'https', 'tls', 'zlib', 'worker_threads'];

/** What snapshot.json says; src/transport/process/builtin-bots.ts reads it. */
export function snapshotFacts(build, dir, nodeOptions) {
  const exe = statSync(process.execPath);
  return { build, dir, node: process.version, execPath: process.execPath, execSize: exe.size, execMtimeMs: exe.mtimeMs, nodeOptions };
}

/**
 * Makes dist/bots-cjs/<name>/snapshot.blob and snapshot.json for build `build` under `env` (the NODE_OPTIONS
 * of the default limits), checks that a start from it says hello, and only then writes snapshot.json.
 * Throws (with why) when any of that fails: the bot then keeps its code-cache start.
 */
export async function botSnapshot({ esbuild, root, dir, name, build, env }) {
  if (createRequire(import.meta.url)('node:http').websocketMask !== undefined) throw new Error(`this Node's http has websocketMask, which ws takes at load`);
  const entry = join(dir, 'snapshot-entry.cjs');
  const contents = `import './src/sdk/index.ts';
import { startupSnapshot } from 'node:v8';
const loaded = process.moduleLoadList.filter((m) => ${JSON.stringify(KEPT_OUT.map((m) => `NativeModule ${m}`))}.includes(m));
if (loaded.length > 0) throw new Error('these cannot be in a snapshot: ' + loaded.join(', '));
// The bot's own module (and what only it imports) runs here, at each start: esbuild makes a module
// reached by require() lazy.
startupSnapshot.setDeserializeMainFunction(() => {
  // What the bot's own child processes and threads inherit: not this blob (a fork would run the bot again).
  const at = process.execArgv.indexOf('--snapshot-blob');
  if (at >= 0) process.execArgv.splice(at, 2);
  require('./bots/${name}/main.ts');
});
`;
  await esbuild.build({
    ...botBundleOptions(build),
    stdin: { contents, resolveDir: root, sourcefile: `snapshot-entry-${name}.ts`, loader: 'ts' },
    outfile: entry,
    plugins: [noMaskHttp, lazyBuiltins(['https', 'tls', 'zlib', 'http'])],
  });
  const blob = join(dir, 'snapshot.blob');
  await run(process.execPath, ['--snapshot-blob', `${blob}.tmp`, '--build-snapshot', entry], { env, cwd: dir, timeout: 60_000 });
  renameSync(`${blob}.tmp`, blob);
  // A start as the arena makes it (stdio mode, stdin closed at once): its first line must be the hello.
  const made = run(process.execPath, ['--snapshot-blob', blob, join(dir, 'main.cjs')], { env: { ...env, ARENA_STDIO: '1' }, cwd: dir, timeout: 30_000 });
  made.child.stdin.end();
  const { stdout } = await made;
  if (!/^\{"type":"hello"/.test(stdout)) throw new Error(`a start from it said no hello: ${stdout.slice(0, 200)}`);
  const facts = join(dir, 'snapshot.json');
  writeFileSync(`${facts}.tmp`, `${JSON.stringify(snapshotFacts(build, dir, env.NODE_OPTIONS ?? ''))}\n`);
  renameSync(`${facts}.tmp`, facts);
}
