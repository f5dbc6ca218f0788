import { closeSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { exportResults, type ExportRow } from '../../app/records/export.ts';
import { withApp } from '../context.ts';
import { CliError, must } from '../errors.ts';
import { toCsv } from '../csv.ts';
import { writeExportItem } from '../export-writer.ts';
import { matchIdArg } from './matches.ts';

/** Export formats. */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Checks a --format value against the accepted ones, with the one-line error. */
export function formatFlag<F extends string>(value: string | undefined, accepted: readonly F[], fallback: F): F {
  if (value === undefined) return fallback;
  if ((accepted as readonly string[]).includes(value)) return value as F;
  const list = accepted.length > 1 ? `${accepted.slice(0, -1).join(', ')} or ${accepted.at(-1)}` : accepted[0];
  throw new CliError(`--format must be ${list}, got "${value}"`);
}

/** Where output goes (see {@link openOut}). */
export interface Out {
  write(text: string): void;
  close(): void;
  /** "to FILE (12.3 KiB)" once a file was written, for the command's closing line; undefined on stdout. */
  written(): string | undefined;
}

/**
 * Where output goes: a file opened (and so checked) before any work, or stdout. A file gets the bytes as they
 * are (a bot's control characters kept: a file is not a terminal); stdout goes through the CLI's print.
 */
export function openOut(path: string | undefined, print: (text: string) => void): Out {
  if (path === undefined) return { write: (t) => t && print(t), close() {}, written: () => undefined };
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new CliError(`cannot write ${path}: ${err.code === 'EACCES' ? 'permission denied' : err.code === 'ENOENT' ? 'no such directory' : err.code === 'EISDIR' ? 'it is a directory' : err.message}`);
  }
  let bytes = 0;
  return {
    write: (t) => void (bytes += writeSync(fd, t)),
    close: () => closeSync(fd),
    written: () => `to ${resolve(path)} (${bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KiB`})`,
  };
}

const COLUMNS: readonly (keyof ExportRow & string)[] = [
  'match', 'scramble', 'puzzle_class', 'bot', 'verdict', 'moves', 'optimal', 'lower_bound', 'gap', 'wall_ms',
  'cpu_ms', 'reported_ms', 'claimed_optimal', 'claim_refuted', 'nodes', 'error_index', 'error', 'note',
];

/** Registers `arena export`. */
export function registerExport(program: Command, write: (text: string) => void, info: (text: string) => void): void {
  program
    .command('export')
    .description(summaryOf('export'))
    .argument('[match]', 'match id (or --all)')
    .option('--all', 'every match, oldest first')
    .option('--format <f>', 'csv (default) or jsonl')
    .option('--out <file>', 'write to a file instead of stdout')
    .option('--with-moves', 'add each answer as stored (column "solution"); answers can be megabytes')
    .option('--db <file>', 'results database (default ARENA_DB or ./leaderboard.db)')
    .action(async (matchText: string | undefined, f: { all?: boolean; format?: string; out?: string; withMoves?: boolean; db?: string }) => {
      const format = formatFlag<ExportFormat>(f.format, EXPORT_FORMATS, 'csv');
      if ((matchText === undefined) === !f.all) throw new CliError('name one match id, or --all for every match');
      const match = matchText !== undefined ? matchIdArg(matchText) : undefined;
      await withApp(f.db, async (ctx) => {
        const batches = must(await exportResults(ctx, { ...(match !== undefined ? { match } : {}), withMoves: Boolean(f.withMoves) }));
        const out = openOut(f.out, write);
        const columns = f.withMoves ? [...COLUMNS, 'solution' as const] : COLUMNS;
        let rows = 0;
        try {
          for await (const items of batches) {
            for (const item of items) {
              await writeExportItem(out, item, format, columns, rows === 0 && format === 'csv');
              rows++;
            }
          }
          // A header even when nothing was played yet, so a spreadsheet still sees the columns.
          if (rows === 0 && format === 'csv') out.write(toCsv([] as (ExportRow & { solution?: string })[], columns, true));
        } finally {
          out.close();
        }
        const where = out.written();
        if (where) info(`wrote ${rows} result${rows === 1 ? '' : 's'} as ${format} ${where}`);
      });
    });
}
