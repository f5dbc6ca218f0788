import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { auditDatabase, type AuditProblem, type AuditReport } from '../../app/audit.ts';
import { jsonText } from '../../app/json-text.ts';
import { withApp } from '../context.ts';
import { must } from '../errors.ts';
import { matchIdArg } from './matches.ts';

/** One problem on one line: match, scramble (from 1) and bot when it concerns them, then what differs. */
export function problemLine(p: AuditProblem): string {
  const where = p.match === 0 ? 'database' : [`match ${p.match}`, ...(p.scramble !== undefined ? [`scramble ${p.scramble}`] : []), ...(p.bot !== undefined ? [`bot ${p.bot}`] : [])].join(', ');
  return `${where}: ${p.what}`;
}

const SOURCES = { regenerated: 'regenerated from its seed', file: 'from a file (not regenerated)', 'other-generator': 'of another generator (not regenerated)', unknown: 'not regenerated' } as const;

/** The audit as text: what was checked per match, then one line per problem, then the verdict. */
export function formatAudit(r: AuditReport): string {
  const lines: string[] = [];
  for (const m of r.matches) {
    lines.push(`match ${m.match} (${m.status}): ${m.scrambles} scrambles ${SOURCES[m.scrambleSource]}, ${m.results} results replayed (${m.moves} moves)`);
    for (const n of m.notes) lines.push(`  note: ${n}`);
  }
  if (r.matches.length === 0) lines.push('no matches to audit');
  lines.push(r.integrity.text);
  if (r.problems.length > 0) lines.push('', `${r.problems.length} problem(s):`, ...r.problems.map(problemLine));
  lines.push(r.ok ? `audit: everything checked holds (${r.matches.length} match(es))` : `audit: FAILED, ${r.problems.length} problem(s)`);
  return lines.join('\n') + '\n';
}

/** Registers `arena audit`: exit 0 when everything checked holds, 1 naming each problem. */
export function registerAudit(program: Command, print: (text: string) => void, setExit: (code: number) => void): void {
  program
    .command('audit')
    .description(summaryOf('audit'))
    .argument('[match]', 'one match id (default: every match)')
    .option('--db <file|url>', 'results database: a file, or postgres://… (default ARENA_DB or ./leaderboard.db)')
    .option('--key <file>', "the database's key file (default: <db file>.key, or for PostgreSQL the key folder; see README)")
    .option('--json', 'print {"ok","integrity","matches","problems"}')
    .action(async (matchText: string | undefined, f: { db?: string; key?: string; json?: boolean }) => {
      const match = matchText !== undefined ? matchIdArg(matchText) : undefined;
      const report = await withApp(
        f.db,
        async (ctx) => must(await auditDatabase(ctx, { ...(match !== undefined ? { match } : {}), ...(f.key !== undefined ? { keyFile: f.key } : {}) })),
        // Only looks: an audit never gives a database its key.
        { seal: { claim: false } },
      );
      print(f.json ? jsonText(report) + '\n' : formatAudit(report));
      setExit(report.ok ? 0 : 1);
    });
}
