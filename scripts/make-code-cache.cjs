// `node make-code-cache.cjs <dist/bots-cjs/name/main.cjs> <out> <build id>`, run by scripts/bot-bundles.js
// with ARENA_STDIO=1, stdin closed and the NODE_OPTIONS a bot gets under the default limits: starts the
// bot as the arena does up to its hello (stdin's end then ends it), and on exit writes the V8 code cache
// of its bundle, which then holds every function that ran on the way, not only the top level.
'use strict';
const { renameSync, writeFileSync } = require('node:fs');

const [main, out, build] = process.argv.slice(2);
process.argv = [process.argv[0], main];
const { script } = require(main);
process.on('exit', () => {
  // Written whole, then renamed: a cache is never read half-written.
  writeFileSync(`${out}.tmp`, Buffer.concat([Buffer.from(`arena-code-cache ${build}\n`, 'latin1'), script.createCachedData()]));
  renameSync(`${out}.tmp`, out);
});
