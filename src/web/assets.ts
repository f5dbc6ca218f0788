import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { projectRootOf } from '../runtime/source-tree.ts';

// Static files are not bundled: read them from the source tree also when this module runs from dist/.
const here = join(projectRootOf(import.meta.url), 'src', 'web');
const require = createRequire(import.meta.url);
const uplotDir = dirname(require.resolve('uplot/dist/uPlot.iife.min.js'));

/** The only files /static serves: a fixed list, so no request path ever reaches the file system. */
const FILES: Record<string, { path: string; type: string }> = {
  'style.css': { path: join(here, 'static', 'style.css'), type: 'text/css; charset=utf-8' },
  'board.js': { path: join(here, 'static', 'board.js'), type: 'text/javascript; charset=utf-8' },
  'replay.js': { path: join(here, 'static', 'replay.js'), type: 'text/javascript; charset=utf-8' },
  'charts.js': { path: join(here, 'static', 'charts.js'), type: 'text/javascript; charset=utf-8' },
  'local-time.js': { path: join(here, 'static', 'local-time.js'), type: 'text/javascript; charset=utf-8' },
  'live.js': { path: join(here, 'static', 'live.js'), type: 'text/javascript; charset=utf-8' },
  'submit-folder.js': { path: join(here, 'static', 'submit-folder.js'), type: 'text/javascript; charset=utf-8' },
  // The tab's icon: without it every page load costs the browser a 404 for /favicon.ico.
  'favicon.svg': { path: join(here, 'static', 'favicon.svg'), type: 'image/svg+xml' },
  'uplot.iife.min.js': { path: join(uplotDir, 'uPlot.iife.min.js'), type: 'text/javascript; charset=utf-8' },
  'uplot.min.css': { path: join(uplotDir, 'uPlot.min.css'), type: 'text/css; charset=utf-8' },
};

const cache = new Map<string, Buffer>();

/** A static asset by name, or undefined when it is not one of the served files. */
export function asset(name: string): { body: Buffer; type: string } | undefined {
  const f = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!f) return undefined;
  let body = cache.get(name);
  if (!body) {
    body = readFileSync(f.path);
    cache.set(name, body);
  }
  return { body, type: f.type };
}
