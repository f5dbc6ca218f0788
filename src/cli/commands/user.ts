import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { addParticipant, listParticipants, revokeParticipant } from '../../app/participants/participants.ts';
import { withApp } from '../context.ts';
import { must } from '../errors.ts';
import { renderTable } from '../table.ts';

/** Registers `arena user add|list|revoke`: the participants who may sign in and use the API. */
export function registerUser(program: Command, print: (text: string) => void): void {
  const user = program.command('user').description(summaryOf('user'));
  user
    .command('add')
    .description('create a participant and print their token once (only its hash is stored)')
    .argument('<name>', 'participant name: lowercase letters and digits, words joined by single - _ or .')
    .option('--admin', 'the participant administers the arena')
    .option('--json', 'print {"user","token"}')
    .option('--db <file>', 'database (default ARENA_DB or ./leaderboard.db)')
    .action(async (name: string, f: { admin?: boolean; json?: boolean; db?: string }) => {
      const added = must(await withApp(f.db, (ctx) => addParticipant(ctx, { name, admin: Boolean(f.admin) })));
      if (f.json) return print(JSON.stringify({ user: added.user, token: added.token }) + '\n');
      print(
        `added ${added.admin ? 'admin ' : ''}participant ${added.user}. Their token (shown only now; only a hash is stored):\n${added.token}\n` +
          'It signs in on the web (arena serve: /sign-in) and authenticates the API ("Authorization: Bearer <token>").\n',
      );
    });
  user
    .command('list')
    .description('participants: name, admin, created, revoked (never a token)')
    .option('--json', 'machine-readable output')
    .option('--db <file>', 'database')
    .action(async (f: { json?: boolean; db?: string }) => {
      const all = await withApp(f.db, listParticipants);
      if (f.json) return print(JSON.stringify(all) + '\n');
      if (all.length === 0) return print('no participants (arena user add <name> creates one)\n');
      const rows = all.map((p) => [p.name, p.admin ? 'yes' : 'no', p.createdAt, p.revokedAt ?? '-']);
      print(renderTable([['name', 'admin', 'created', 'revoked'], ...rows]) + '\n');
    });
  user
    .command('revoke')
    .description('revoke a participant: their token and web sessions stop working at once')
    .argument('<name>', 'participant name')
    .option('--db <file>', 'database')
    .action(async (name: string, f: { db?: string }) => {
      const done = must(await withApp(f.db, (ctx) => revokeParticipant(ctx, name)));
      print(`revoked participant ${done.name} (at ${done.revokedAt})\n`);
    });
}
