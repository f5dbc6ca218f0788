// The start of a built-in bot (copied by scripts/bot-bundles.js to dist/bots-cjs/<name>/main.cjs) and of the
// command line (scripts/cli-bundle.js: dist/cli-cjs/main.cjs): runs the one-file bundle beside it
// (bundle.cjs) from the V8 code cache the build made for it (code-cache.bin), so V8 neither parses nor
// compiles the bundle at start. Everything here is in the checkout, which a confined bot sees read-only:
// the bot cannot write the cache it starts from.
//
// A cache is used only when its first line names the same build as the bundle's (a cache of another
// build is never mixed with this bundle's source, whatever its length); V8 itself then refuses one made
// by another Node or under other V8 flags (a memory limit other than the default's changes
// --max-old-space-size). A missing, stale or refused cache is the plain start: compile the source.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire, wrap } = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const bundle = join(__dirname, 'bundle.cjs');
const source = readFileSync(bundle, 'utf8');
const build = /^\/\/ arena-build (\S+)\n/.exec(source);
let cachedData;
try {
  const file = readFileSync(join(__dirname, 'code-cache.bin'));
  const eol = file.indexOf(10);
  if (build && eol > 0 && file.toString('latin1', 0, eol) === `arena-code-cache ${build[1]}`) cachedData = file.subarray(eol + 1);
} catch {
  // No cache (never built, or the build could not make one): the plain start.
}
const script = new Script(wrap(source), { filename: bundle, ...(cachedData ? { cachedData } : {}) });
// What the cache maker (scripts/make-code-cache.cjs) reads once the bot has said hello; and whether the
// cache was taken, for the build's check and the tests.
module.exports = { script, cached: cachedData !== undefined && !script.cachedDataRejected };
const mod = { exports: {} };
script.runInThisContext()(mod.exports, createRequire(bundle), mod, bundle, dirname(bundle));
