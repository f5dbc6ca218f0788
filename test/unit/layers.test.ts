import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// ARCHITECTURE.md's layering (its "Layers" section), held by reading every import of src/ with the TypeScript parser (so comments,
// strings and multi-line imports cannot fool it).

const SRC = resolve(import.meta.dirname, '../../src');
const BOTS = resolve(import.meta.dirname, '../../bots');

/**
 * What each folder of src/ may import at run time (besides itself), and additionally as types only.
 * Arrows point down: core < puzzles < solvers/protocol < store/transport < sandbox < referee < app < entry
 * points. stats (pure statistics) sits just above core: it reads results through core's types only, so the
 * engine and the app use it while it knows nothing of a store, a link or a match. The sandbox builds on transport's confinement interface and its process helper,
 * and on intake, whose safe unpacking takes a sandboxed build's output back in (a build's output is as untrusted as an upload).
 * runtime (where the running code is on disk: the project root, the bundle in dist/) sits beside core.
 * The referee is handed its store, links and clock, so it imports the store's types but no implementation.
 * Entry points (cli, web, worker) call app; they may use the pure core and puzzles for parsing and display.
 * The `arena` program (cli) is what starts the other entry points (`arena serve`, `arena worker`), so it may import them.
 */
const LAYERS: Record<string, { readonly may: readonly string[]; readonly typesMay?: readonly string[] }> = {
  core: { may: [] },
  runtime: { may: ['core'] },
  stats: { may: ['core'] },
  puzzles: { may: ['core'] },
  solvers: { may: ['core', 'puzzles', 'runtime'] },
  protocol: { may: ['core', 'puzzles'] },
  store: { may: ['core', 'puzzles', 'protocol'] },
  transport: { may: ['core', 'puzzles', 'protocol', 'runtime'] },
  sandbox: { may: ['core', 'protocol', 'transport', 'intake', 'runtime'] },
  intake: { may: ['core', 'runtime'] },
  referee: { may: ['core', 'stats', 'puzzles', 'solvers', 'protocol'], typesMay: ['store'] },
  app: { may: ['core', 'stats', 'puzzles', 'solvers', 'protocol', 'store', 'transport', 'sandbox', 'intake', 'referee', 'runtime'] },
  cli: { may: ['core', 'puzzles', 'app', 'web', 'worker'] },
  web: { may: ['core', 'puzzles', 'app', 'runtime'] },
  worker: { may: ['core', 'puzzles', 'app'] },
  sdk: { may: ['core', 'puzzles', 'protocol'] },
};

/** Packages (and Node modules) only some layers may import; the reason is in the message. */
const RESTRICTED: ReadonlyArray<{ readonly modules: RegExp; readonly only: readonly string[]; readonly why: string }> = [
  { modules: /^(ws|(node:)?child_process)$/, only: ['transport', 'sdk'], why: 'sockets and processes belong to transport (and the bot-side SDK)' },
  { modules: /^(better-sqlite3|pg|pg-boss)(\/|$)/, only: ['store'], why: 'database drivers and the job queue belong to store' },
];

/**
 * Layers that must stay pure: no Node module, and of packages only computation-only ones: zod, and
 * stdlib-js's per-function math and distribution packages (the statistics' special functions).
 */
const PURE = new Set(['core', 'puzzles', 'stats']);
const PURE_PACKAGES = /^(zod|@stdlib\/(math-base-special|stats-base-dists)-[a-z0-9-]+)$/;

/**
 * Printing and exiting are the CLI's. The SDK is the exception: it runs in the bot's own process, whose
 * stdout is the protocol channel in stdio mode and which ends itself when the referee says `bye`.
 */
const MAY_PRINT_OR_EXIT = new Set(['cli', 'sdk']);
/**
 * Files that are programs of their own, run inside a bot's sandbox (not modules of the referee): the
 * Node relay prints its "listening" line to the shell that waits for it, and exits when the bot is gone.
 */
const OWN_PROGRAMS = new Set(['sandbox/relay-fallback.mjs']);

interface Import {
  readonly specifier: string;
  readonly typeOnly: boolean;
  readonly line: number;
}

interface Use {
  readonly what: string;
  readonly line: number;
}

/** The imports of one file and its uses of console / process output and exit. */
function scan(file: string, text: string): { imports: Import[]; uses: Use[] } {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const imports: Import[] = [];
  const uses: Use[] = [];
  const line = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const typeOnly = Boolean(c && (c.isTypeOnly || (!c.name && named && named.length > 0 && named.every((e) => e.isTypeOnly))));
      imports.push({ specifier: node.moduleSpecifier.text, typeOnly, line: line(node) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      const typeOnly = node.isTypeOnly || Boolean(named && named.length > 0 && named.every((e) => e.isTypeOnly));
      imports.push({ specifier: node.moduleSpecifier.text, typeOnly, line: line(node) });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      imports.push({ specifier: importedName(node.arguments[0]), typeOnly: false, line: line(node) });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      imports.push({ specifier: node.argument.literal.text, typeOnly: true, line: line(node) });
    } else if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const obj = node.expression.text;
      const prop = node.name.text;
      if (obj === 'console' || (obj === 'process' && ['stdout', 'stderr', 'exit', 'exitCode', 'abort'].includes(prop))) {
        uses.push({ what: `${obj}.${prop}`, line: line(node) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { imports, uses };
}

/** The module an import() names: a string, or `new URL('<string>', import.meta.url)` (optionally `.href`). */
function importedName(arg: ts.Expression | undefined): string {
  if (arg && ts.isStringLiteral(arg)) return arg.text;
  const url = arg && ts.isPropertyAccessExpression(arg) && arg.name.text === 'href' ? arg.expression : arg;
  if (url && ts.isNewExpression(url) && ts.isIdentifier(url.expression) && url.expression.text === 'URL') {
    const first = url.arguments?.[0];
    if (first && ts.isStringLiteral(first) && first.text.startsWith('.')) return first.text;
  }
  return '<computed>';
}

/** The layer (top folder of src/) a path inside src/ belongs to. */
function layerOf(path: string): string {
  return relative(SRC, path).split(sep)[0];
}

/** Every rule broken by one file, as "file:line: reason". */
export function violations(file: string, text: string): string[] {
  const from = layerOf(file);
  const rules = LAYERS[from];
  const where = relative(SRC, file);
  if (!rules) return [`${where}: src/${from}/ is not a known layer; add it to LAYERS in this test (and to ARCHITECTURE.md's layers table)`];
  const { imports, uses } = scan(file, text);
  const out: string[] = [];
  for (const imp of imports) {
    const at = `${where}:${imp.line}`;
    if (imp.specifier === '<computed>') {
      out.push(`${at}: import() of a computed module name cannot be checked`);
    } else if (imp.specifier.startsWith('.')) {
      const target = resolve(file, '..', imp.specifier);
      if (!target.startsWith(SRC + sep)) {
        out.push(`${at}: imports ${imp.specifier}, outside src/`);
        continue;
      }
      const to = layerOf(target);
      if (to === from) continue;
      const allowed = rules.may.includes(to) || (imp.typeOnly && (rules.typesMay ?? []).includes(to));
      if (!allowed) out.push(`${at}: ${from} may not import ${to} (${imp.specifier}${imp.typeOnly ? ', types' : ''})`);
    } else {
      if (PURE.has(from) && !imp.typeOnly && !PURE_PACKAGES.test(imp.specifier)) out.push(`${at}: ${from} is pure but imports ${imp.specifier}`);
      for (const r of RESTRICTED) {
        if (r.modules.test(imp.specifier) && !r.only.includes(from)) out.push(`${at}: ${from} imports ${imp.specifier}: ${r.why}`);
      }
    }
  }
  if (!MAY_PRINT_OR_EXIT.has(from) && !OWN_PROGRAMS.has(where.split(sep).join('/'))) {
    for (const u of uses) out.push(`${where}:${u.line}: ${u.what}: only the CLI prints or exits`);
  }
  return out;
}

/**
 * Rules inside a layer (ARCHITECTURE.md, "Rooms"). `order`: the layer's rooms (its sub-folders), lowest
 * first; a room imports its own files, the layer's top-level files and the rooms before it, never one
 * after it, and the layer's top-level files import no room (they are what every room shares).
 * `apart`: rooms that never import each other (the store's three implementations stand alone on the
 * store's shared files; only the store's top-level files, which choose one, import them).
 */
const ROOMS: Record<string, { readonly order?: readonly string[]; readonly apart?: readonly string[] }> = {
  app: { order: ['bots', 'participants', 'launch', 'records', 'matches', 'ladder', 'submissions', 'audit'] },
  store: { apart: ['sqlite', 'pg', 'memory'] },
};

/** The room (second folder of src/) a path belongs to, or undefined for a layer's top-level file. */
function roomOf(path: string): string | undefined {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 2 ? parts[1] : undefined;
}

/** Every room rule broken by one file's imports of its own layer, as "file:line: reason". */
export function roomViolations(file: string, text: string): string[] {
  const layer = layerOf(file);
  const rules = ROOMS[layer];
  if (!rules) return [];
  const from = roomOf(file);
  const where = relative(SRC, file);
  const out: string[] = [];
  for (const imp of scan(file, text).imports) {
    if (!imp.specifier.startsWith('.')) continue;
    const target = resolve(file, '..', imp.specifier);
    if (layerOf(target) !== layer) continue;
    const to = roomOf(target);
    if (to === undefined || to === from) continue;
    const at = `${where}:${imp.line}`;
    if (rules.order) {
      const [i, j] = [from === undefined ? -1 : rules.order.indexOf(from), rules.order.indexOf(to)];
      if (from === undefined) out.push(`${at}: a top-level file of ${layer} imports the room ${to} (${imp.specifier}); top-level files are what every room shares`);
      else if (i < 0 || j < 0) out.push(`${at}: ${layer}/${i < 0 ? from : to}/ is not a known room; add it to ROOMS in this test (and to ARCHITECTURE.md)`);
      else if (j > i) out.push(`${at}: ${layer}/${from}/ may not import ${layer}/${to}/, a room above it (${imp.specifier})`);
    }
    if (rules.apart && from !== undefined && rules.apart.includes(from) && rules.apart.includes(to)) {
      out.push(`${at}: ${layer}/${from}/ may not import ${layer}/${to}/: they stand apart (${imp.specifier})`);
    }
  }
  return out;
}

/** The import graph of src/ (every import, type-only ones included), file to files, by absolute path. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const targets = scan(f, readFileSync(f, 'utf8'))
      .imports.filter((i) => i.specifier.startsWith('.'))
      .map((i) => resolve(f, '..', i.specifier));
    graph.set(f, targets);
  }
  return graph;
}

/** The import circles of a graph: its strongly connected components of two or more files, or one importing itself (Tarjan). */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** What a built-in bot may import from src/: the SDK and the pure layers and solvers it builds on. */
const BOT_MAY = new Set(['core', 'puzzles', 'protocol', 'solvers', 'sdk', 'runtime']);

/**
 * Every rule a file of bots/ breaks: a bot imports its own folder, bots/shared and the layers above, never
 * another bot's folder (one bot = one folder, so each can change alone); bots/shared imports no bot folder.
 */
export function botViolations(file: string, text: string): string[] {
  const where = relative(BOTS, file);
  const own = where.split(sep)[0];
  const out: string[] = [];
  for (const imp of scan(file, text).imports) {
    if (!imp.specifier.startsWith('.')) continue;
    const at = `bots/${where.split(sep).join('/')}:${imp.line}`;
    const target = resolve(file, '..', imp.specifier);
    if (target.startsWith(SRC + sep)) {
      const layer = layerOf(target);
      if (!BOT_MAY.has(layer)) out.push(`${at}: a bot may not import src/${layer}/ (${imp.specifier})`);
    } else if (target.startsWith(BOTS + sep)) {
      const to = relative(BOTS, target).split(sep)[0];
      if (to !== own && to !== 'shared') out.push(`${at}: ${own} imports the folder of bot ${to} (${imp.specifier}); share code through bots/shared`);
    } else {
      out.push(`${at}: imports ${imp.specifier}, outside bots/ and src/`);
    }
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(ts|mts|mjs|js)$/.test(name) ? [p] : [];
  });
}

describe('layers', () => {
  it('layers - every import of src/ follows ARCHITECTURE.md, and only the CLI prints or exits', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => violations(f, readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('layers - no bot imports another bot\'s folder, and bots import only the SDK and the pure layers', () => {
    const files = sourceFiles(BOTS);
    expect(files.length).toBeGreaterThan(30);
    const found = files.flatMap((f) => botViolations(f, readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('layers - the bots checker catches a bot importing another bot, and a bot importing the app', () => {
    const at = (p: string) => join(BOTS, p);
    expect(botViolations(at('hybrid/x.ts'), `import { a } from '../constructive/constructive.ts';`)).toEqual([
      expect.stringMatching(/hybrid imports the folder of bot constructive/),
    ]);
    expect(botViolations(at('shared/x.ts'), `import { a } from '../ida-star/solve.ts';`)).toHaveLength(1);
    expect(botViolations(at('hybrid/x.ts'), `import { a } from '../shared/constructive/constructive.ts';`)).toEqual([]);
    expect(botViolations(at('shared/constructive/x.ts'), `import { a } from '../../../src/puzzles/sliding/table.ts';`)).toEqual([]);
    expect(botViolations(at('hybrid/x.ts'), `import { a } from '../../src/store/open.ts';`)).toEqual([expect.stringMatching(/src\/store/)]);
  });

  it('layers - the checker catches each kind of violation (so the test above can fail)', () => {
    const at = (p: string) => join(SRC, p);
    expect(violations(at('referee/x.ts'), `import { WebSocket } from 'ws';`)).toEqual([
      expect.stringMatching(/referee may not|referee imports ws/),
    ]);
    expect(violations(at('referee/x.ts'), `import { openSqliteStore } from '../store/sqlite-store.ts';`)).toHaveLength(1);
    expect(violations(at('referee/x.ts'), `import type { Store } from '../store/types.ts';`)).toEqual([]);
    expect(violations(at('referee/x.ts'), `import {\n  type Store,\n  openSqliteStore,\n} from '../store/sqlite-store.ts';`)).toHaveLength(1);
    expect(violations(at('app/x.ts'), `import Database from 'better-sqlite3';`)).toEqual([expect.stringMatching(/database drivers/)]);
    expect(violations(at('puzzles/x.ts'), `import { readFileSync } from 'node:fs';`)).toEqual([expect.stringMatching(/pure/)]);
    expect(violations(at('puzzles/x.ts'), `import { z } from 'zod';`)).toEqual([]);
    expect(violations(at('core/x.ts'), `export { x } from '../referee/y.ts';`)).toHaveLength(1);
    expect(violations(at('stats/x.ts'), `import type { VERDICTS } from '../core/verdict.ts';`)).toEqual([]);
    expect(violations(at('stats/x.ts'), `import cdf from '@stdlib/stats-base-dists-normal-cdf';`)).toEqual([]);
    expect(violations(at('stats/x.ts'), `import type { Store } from '../store/types.ts';`)).toEqual([expect.stringMatching(/stats may not import store/)]);
    expect(violations(at('stats/x.ts'), `import { tieBreakOf } from '../referee/match-config.ts';`)).toHaveLength(1);
    expect(violations(at('stats/x.ts'), `import { readFileSync } from 'node:fs';`)).toEqual([expect.stringMatching(/stats is pure/)]);
    expect(violations(at('stats/x.ts'), `import stdlib from '@stdlib/stdlib';`)).toEqual([expect.stringMatching(/stats is pure/)]);
    expect(violations(at('cli/x.ts'), `const m = await import('../store/sqlite-store.ts');`)).toHaveLength(1);
    expect(violations(at('cli/x.ts'), `import { spawn } from 'node:child_process';`)).toHaveLength(1);
    expect(violations(at('cli/x.ts'), `await import(new URL('../store/y.ts', import.meta.url).href);`)).toHaveLength(1);
    expect(violations(at('cli/x.ts'), `await import(name);`)).toEqual([expect.stringMatching(/computed/)]);
    expect(violations(at('store/x.ts'), `// process.exit(1) in a comment is fine\nconsole.log('x');`)).toEqual([
      expect.stringMatching(/:2: console.log: only the CLI/),
    ]);
    expect(violations(at('app/x.ts'), `process.exitCode = 2;`)).toHaveLength(1);
    expect(violations(at('cli/x.ts'), `process.stdout.write('ok');`)).toEqual([]);
    expect(violations(at('gadgets/x.ts'), ``)).toEqual([expect.stringMatching(/not a known layer/)]);
  });
  it('layers - rooms inside a layer import only the rooms below them, and the store\'s implementations stand apart', () => {
    const found = sourceFiles(SRC).flatMap((f) => roomViolations(f, readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('layers - the room checker catches a room importing one above it, a top-level file importing a room, and two implementations meeting', () => {
    const at = (p: string) => join(SRC, p);
    expect(roomViolations(at('app/records/x.ts'), `import { startMatch } from '../matches/matches.ts';`)).toEqual([expect.stringMatching(/app\/records\/ may not import app\/matches\//)]);
    expect(roomViolations(at('app/matches/x.ts'), `import type { ResolvedBot } from '../bots/bot-registry.ts';`)).toEqual([]);
    expect(roomViolations(at('app/context.ts'), `import { x } from './audit/audit.ts';`)).toEqual([expect.stringMatching(/top-level file of app imports the room audit/)]);
    expect(roomViolations(at('app/gadgets/x.ts'), `import { x } from '../bots/y.ts';`)).toEqual([expect.stringMatching(/not a known room/)]);
    expect(roomViolations(at('store/pg/x.ts'), `import { x } from '../sqlite/sqlite-store.ts';`)).toEqual([expect.stringMatching(/stand apart/)]);
    expect(roomViolations(at('store/pg/x.ts'), `import { x } from '../sql-text.ts';`)).toEqual([]);
    expect(roomViolations(at('store/open.ts'), `import { x } from './pg/pg-store.ts';`)).toEqual([]);
  });

  it('layers - src/ has no import circle, type-only imports included', () => {
    const found = circles(importGraph(sourceFiles(SRC))).map((c) => c.map((f) => relative(SRC, f)).join(' -> '));
    expect(found).toEqual([]);
  });

  it('layers - the circle finder finds a circle of three, a file importing itself, and none in a chain', () => {
    const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
    expect(circles(g({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toEqual([['a', 'b', 'c']]);
    expect(circles(g({ a: ['a'], b: [] }))).toEqual([['a']]);
    expect(circles(g({ a: ['b'], b: ['c'], c: [] }))).toEqual([]);
  });
});
