import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { backupDatabase } from '../../app/records/backup.ts';
import { must } from '../errors.ts';

/** Registers `arena backup <file>`. */
export function registerBackup(program: Command, print: (text: string) => void): void {
  program
    .command('backup')
    .description(summaryOf('backup'))
    .argument('<file>', 'the new file (never overwritten)')
    .option('--db <file>', 'results database (default ARENA_DB or ./leaderboard.db); for postgres://… use pg_dump')
    .action(async (file: string, f: { db?: string }) => {
      const b = must(await backupDatabase({ to: file, ...(f.db !== undefined ? { db: f.db } : {}) }));
      print(`backed up ${b.from} to ${b.to} (${(b.bytes / 2 ** 20).toFixed(1)} MiB, checked)\n`);
    });
}
