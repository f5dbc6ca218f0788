import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// `arena --help` loads the catalog and nothing a command needs: every module main.ts reaches by static,
// run-time imports (a type-only import loads nothing; `await import(…)` loads on demand) is listed here.

const SRC = resolve(import.meta.dirname, '../../src');

/** The files and packages reached from `entry` by static imports that load code at run time. */
function staticGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const st of sf.statements) {
      if (!(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
      const clause = ts.isImportDeclaration(st) ? st.importClause : undefined;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly = ts.isImportDeclaration(st)
        ? Boolean(clause && (clause.isTypeOnly || (!clause.name && named && named.length > 0 && named.every((e) => e.isTypeOnly))))
        : st.isTypeOnly;
      if (typeOnly) continue;
      const spec = st.moduleSpecifier.text;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files: [...files].map((f) => relative(SRC, f)).sort(), packages: [...packages].sort() };
}

describe('cli lazy', () => {
  it('main - `arena --help` reaches only the CLI shell, core, commander and zod: no command, database driver or server', () => {
    const { files, packages } = staticGraph(resolve(SRC, 'cli/main.ts'));
    expect(files.filter((f) => !/^(cli\/[a-z-]+\.ts|core\/)/.test(f))).toEqual([]);
    expect(files.filter((f) => f.startsWith('cli/commands/'))).toEqual([]);
    expect(packages.filter((p) => !/^(commander|zod|node:.*)$/.test(p))).toEqual([]);
  });
});
