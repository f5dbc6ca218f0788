import * as esbuild from 'esbuild';
const [entry, outfile, lazyHttp] = process.argv.slice(2);
const lazy = lazyHttp === '1' ? /^(https|tls|zlib|http)$/ : /^(https|tls|zlib)$/;
await esbuild.build({
  entryPoints: [entry], outfile, bundle: true, format: 'cjs', platform: 'node', target: 'node20',
  external: ['better-sqlite3', 'pg-native'], minifyWhitespace: true, minifySyntax: true,
  define: { 'import.meta.url': '__arenaUrl' },
  banner: { js: `"use strict";\nconst __arenaUrl = require('node:url').pathToFileURL(__filename).href;` },
  logLevel: 'warning',
  plugins: [{ name: 'lazy', setup(b) {
    b.onResolve({ filter: /^http$/ }, (a) => (/[\\/]ws[\\/]lib[\\/]buffer-util\.js$/.test(a.importer) ? { path: 'nomask', namespace: 'no-mask' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'no-mask' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
    b.onResolve({ filter: lazy }, (a) => (/[\\/]node_modules[\\/]ws[\\/]/.test(a.importer) ? { path: a.path, namespace: 'lazy-builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (a) => ({ contents: `let real; const load = () => (real ??= require('node:${a.path}'));
module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });`, loader: 'js' }));
  } }],
});
