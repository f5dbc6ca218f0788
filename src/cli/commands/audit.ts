import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { auditDatabase, type AuditProblem, type AuditReport } from '../../app/audit/audit.ts';
import { jsonText } from '../../app/records/json-text.ts';
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
  for (const n of r.notes) lines.push(`note: ${n}`);
  lines.push(r.integrity.text);
  if (r.problems.length > 0) lines.push('', `${r.problems.length} problem(s):`, ...r.problems.map(problemLine));
  lines.push(verdictLine(r));
  return lines.join('\n') + '\n';
}

/** The last line: holds, failed, or incomplete (a key the database has, and this audit has not). */
function verdictLine(r: AuditReport): string {
  const incomplete = r.incomplete
    ? `incomplete: ${r.incomplete.unchecked} results unchecked, key not found at ${r.incomplete.keyFile}; pass --key FILE (or --no-key for the replay checks alone)`
    : undefined;
  if (r.problems.length > 0) return [...(incomplete ? [incomplete] : []), `audit: FAILED, ${r.problems.length} problem(s)`].join('\n');
  if (incomplete) return incomplete;
  return `audit: everything checked holds (${r.matches.length} match(es))`;
}

/** The exit status of an audit: 0 holds, 1 a problem, 2 incomplete (seals present, no key). */
export function auditExit(r: AuditReport): number {
  return r.problems.length > 0 ? 1 : r.incomplete ? 2 : 0;
}

/** Registers `arena audit`: exit 0 when everything checked holds, 1 naming each problem, 2 when incomplete. */
export function registerAudit(program: Command, print: (text: string) => void, setExit: (code: number) => void): void {
  program
    .command('audit')
    .description(summaryOf('audit'))
    .argument('[match]', 'one match id (default: every match)')
    .option('--db <file|url>', 'results database: a file, or postgres://… (default ARENA_DB or ./leaderboard.db)')
    .option('--key <file>', "the database's key file (default: <db file>.key, or for PostgreSQL the key folder; see docs/audit.md)")
    .option('--no-key', 'check by replay alone, without the seals (times, deletions and insertions go unchecked)')
    .option('--deep', 'also prove every cached optimum and every scramble optimum again with the exact oracle (slow: up to 30 s each)')
    .option('--json', 'print {"ok","integrity","incomplete","matches","problems"}')
    .action(async (matchText: string | undefined, f: { db?: string; key?: string | false; deep?: boolean; json?: boolean }) => {
      const match = matchText !== undefined ? matchIdArg(matchText) : undefined;
      // commander folds --key FILE and --no-key into one option: a string, or false.
      const noKey = f.key === false;
      const report = await withApp(
        f.db,
        async (ctx) => must(await auditDatabase(ctx, { ...(match !== undefined ? { match } : {}), ...(typeof f.key === 'string' ? { keyFile: f.key } : {}), noKey, deep: f.deep === true })),
        // Only looks: an audit never gives a database its key.
        { seal: { claim: false } },
      );
      print(f.json ? jsonText(report) + '\n' : formatAudit(report));
      setExit(auditExit(report));
    });
}
