// `node make-code-cache.cjs <dist/…/main.cjs> <out> <build id> [args…]`, run by scripts/bot-bundles.js
// with ARENA_STDIO=1, stdin closed and the NODE_OPTIONS a bot gets under the default limits: starts the
// bot as the arena does up to its hello (stdin's end then ends it), and on exit writes the V8 code cache
// of its bundle, which then holds every function that ran on the way, not only the top level. Run by
// scripts/cli-bundle.js the same way for the command line, with the command's arguments after the id.
'use strict';
const { renameSync, writeFileSync } = require('node:fs');

const [main, out, build, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], main, ...args];
const { script } = require(main);
process.on('exit', () => {
  // Written whole, then renamed: a cache is never read half-written.
  writeFileSync(`${out}.tmp`, Buffer.concat([Buffer.from(`arena-code-cache ${build}\n`, 'latin1'), script.createCachedData()]));
  renameSync(`${out}.tmp`, out);
});
