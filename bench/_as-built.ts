/**
 * The referee's loops (_floor.ts, _end-to-end.ts) as `arena` runs its code: bundled by esbuild with the
 * options of the command line's bundle (scripts/bot-bundles.js), not through tsx. tsx's transform keeps
 * every function's name by calling Object.defineProperty on each closure it makes, and the referee makes
 * several per solve: under tsx the bench timed a slower referee than users get (about 5–8 % fewer
 * scrambles a second in paired runs, docs/benchmarks.md). The bot stays as any bot is run, through tsx.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type * as EndToEndLoop from './_end-to-end.ts';
import type * as FloorLoop from './_floor.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** The two loops, from the bundle or (where esbuild cannot run) from source. */
export interface Loops {
  readonly floorRate: typeof FloorLoop.floorRate;
  readonly endToEnd: typeof EndToEndLoop.endToEnd;
  /** How the referee's code was loaded, for the rows' notes. */
  readonly how: 'bundle' | 'source';
}

let loaded: Promise<Loops> | undefined;

/** Bundles the loops once per bench process into .cache/bench/ and loads them. */
export function loopsAsBuilt(): Promise<Loops> {
  loaded ??= build();
  return loaded;
}

async function build(): Promise<Loops> {
  const out = join(ROOT, '.cache', 'bench', 'referee-loops.cjs');
  try {
    const esbuild = await import('esbuild');
    // @ts-expect-error -- a plain JavaScript build script without types
    const { botBundleOptions } = await import('../scripts/bot-bundles.js');
    const options = botBundleOptions('bench');
    mkdirSync(join(ROOT, '.cache', 'bench'), { recursive: true });
    await esbuild.build({
      ...options,
      stdin: { contents: "export { floorRate } from './_floor.ts'; export { endToEnd } from './_end-to-end.ts';", resolveDir: import.meta.dirname, loader: 'ts' },
      // The loops find their files (the floor's bot, the fixtures) from where their source is.
      define: { ...options.define, 'import.meta.dirname': JSON.stringify(import.meta.dirname) },
      outfile: out,
    });
    const mod = createRequire(import.meta.url)(out) as Omit<Loops, 'how'>;
    return { floorRate: mod.floorRate, endToEnd: mod.endToEnd, how: 'bundle' };
  } catch (e) {
    console.warn(`bench: the referee's loops run from source (tsx), slower than as built: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    const [{ floorRate }, { endToEnd }] = await Promise.all([import('./_floor.ts'), import('./_end-to-end.ts')]);
    return { floorRate, endToEnd, how: 'source' };
  }
}
