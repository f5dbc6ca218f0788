import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { listWorkers, type WorkerRecord } from '../../app/matches/distributed.ts';
import { scrambleNumber } from '../../core/scramble-number.ts';
import { runWorkerProcess, WORKER_DEFAULTS, type WorkerRunEvent } from '../../worker/run-worker.ts';
import { RECORDS, sealingNotice } from '../../app/seal-keys.ts';
import { withApp } from '../context.ts';
import { CliError, must } from '../errors.ts';
import { withInterrupt } from '../interrupt.ts';
import { commandSettings, secondsFlag, settingOptions } from '../parse-flags.ts';
import { MATCH_DEFAULTS } from '../../app/matches/settings.ts';
import { renderTable } from '../table.ts';

/** The worker's own flags; its settings (--concurrency, --no-sandbox) are the schema's, read by commandSettings. */
interface WorkerFlags {
  db?: string;
  name?: string;
  heartbeat?: string;
  deadAfter?: string;
  quiet?: boolean;
  builds: boolean;
}

/** One log line per worker event (results only without --quiet). */
function describe(e: WorkerRunEvent, quiet: boolean): string | undefined {
  switch (e.type) {
    case 'registered':
      return `worker ${e.name} (id ${e.id}) on ${e.cpu}: waiting for jobs`;
    case 'took':
      if (e.job.task === 'optima') return quiet ? undefined : `match ${e.job.matchId}: oracle job of ${e.job.scrambleIds.length} scramble(s)`;
      return quiet ? undefined : `match ${e.job.matchId} ${e.job.bot}: job of ${e.job.scrambleIds.length} scramble(s), ${e.toPlay} to play${e.job.attempt ? ` (attempt ${e.job.attempt + 1})` : ''}`;
    case 'result':
      return quiet ? undefined : `match ${e.matchId} #${scrambleNumber(e.scrambleIndex)} ${e.bot}: ${e.verdict}${e.verdict === 'solved' ? ` ${e.moves} moves` : ''} in ${e.wallMs.toFixed(0)} ms`;
    case 'completed':
      return undefined;
    case 'notice':
      return e.message;
    case 'decided':
      return `match ${e.matchId}: the SPRT decided ${e.sprt.decision} after ${e.sprt.scrambles} scramble(s); its jobs not yet taken are withdrawn`;
    case 'optima':
      return quiet ? undefined : `match ${e.matchId}: exact optima of ${e.scrambles} scramble(s) ${e.how === 'settled' ? 'settled' : 'cut short (handed back)'}`;
    case 'finished':
      return `match ${e.matchId} finished`;
    case 'refused':
      return `match ${e.matchId}: cannot start ${e.bot} here (${e.reason}); its jobs are left to other workers`;
    case 'handed-back':
      return `match ${e.job.matchId} ${e.job.bot}: job handed back (${e.reason})`;
    case 'db-error':
      return `database: ${e.message} (retrying)`;
    case 'heartbeat-failed':
      return `heartbeat failed: ${e.message} (retrying)`;
    case 'build':
      return `submission ${e.submission} ${e.bot} (version ${e.version.slice(0, 12)}): ${e.outcome === 'built' ? 'built here and registered' : e.outcome === 'stopped' ? 'build stopped; queued again' : `failed: ${e.reason ?? ''}`} in ${e.ms} ms`;
  }
}

function ago(seconds: number): string {
  return seconds < 90 ? `${Math.round(seconds)}s` : seconds < 5400 ? `${Math.round(seconds / 60)}m` : `${(seconds / 3600).toFixed(1)}h`;
}

function formatWorkers(list: readonly WorkerRecord[]): string {
  if (list.length === 0) return 'no live workers: start one with arena worker --db <url>\n';
  const rows = [['name', 'host', 'cpu', 'slots', 'beat', 'state', 'jobs']];
  for (const w of list) {
    const jobs = w.jobs.map((j) => `m${j.matchId} ${j.bot} x${j.scrambles}`).join(', ');
    rows.push([w.name, w.host, w.cpu, String(w.concurrency), `${ago(w.silentSeconds)} ago`, w.stoppedAt ? `stopped: ${w.stopReason ?? ''}` : 'live', jobs || '-']);
  }
  return renderTable(rows, new Set([3])) + '\n';
}

/** Registers `arena worker` and `arena workers`. */
export function registerWorker(program: Command, print: (text: string) => void, info: (text: string) => void): void {
  const worker = program.command('worker').description(summaryOf('worker'));
  settingOptions(worker, 'worker')
    .option('--db <url>', 'the PostgreSQL database of the matches: postgres://user@host/db (default ARENA_DB)')
    .option('--name <name>', 'shown in arena workers and stored with each result (default <host>-<pid>)')
    .option('--heartbeat <t>', `time between heartbeats, whole seconds with the unit: 5s (default ${WORKER_DEFAULTS.heartbeatSeconds}s)`)
    .option('--dead-after <t>', `a worker silent this long is dead and its jobs go to others, e.g. 30s (default ${WORKER_DEFAULTS.deadAfterSeconds}s; same on every worker)`)
    .option('--quiet', 'log only registrations, refusals, builds and trouble, not every result')
    .option('--no-builds', 'do not build submitted bots here (arena serve or other workers build them)')
    .action(async (f: WorkerFlags) => {
      const settings = commandSettings(f, 'worker');
      const concurrency = settings.concurrency ?? MATCH_DEFAULTS.concurrency;
      const heartbeatSeconds = secondsFlag('heartbeat', f.heartbeat, { min: 1, max: 3600 }, WORKER_DEFAULTS.heartbeatSeconds);
      const deadAfterSeconds = secondsFlag('dead-after', f.deadAfter, { min: 2, max: 86_400 }, WORKER_DEFAULTS.deadAfterSeconds);
      if (f.name !== undefined && !/^[\w.@:-]{1,100}$/.test(f.name)) {
        throw new CliError(`--name must be 1 to 100 letters, digits or . _ - @ :, got "${f.name}"`);
      }
      const summary = await withInterrupt(
        () => info('stopping: the job in play is cut short and handed back (Ctrl-C again to force)'),
        async (signal) =>
          must(
            await withApp(f.db, (ctx) => {
              const sealing = sealingNotice(ctx);
              if (sealing) info(sealing);
              return runWorkerProcess(
                ctx,
                {
                  concurrency,
                  builds: f.builds,
                  ...(settings.unconfined ? { unconfined: true } : {}),
                  ...(f.name !== undefined ? { name: f.name } : {}),
                  ...(heartbeatSeconds !== undefined ? { heartbeatSeconds } : {}),
                  ...(deadAfterSeconds !== undefined ? { deadAfterSeconds } : {}),
                },
                {
                  signal,
                  onEvent: (e) => {
                    const line = describe(e, Boolean(f.quiet));
                    if (line) info(line);
                  },
                },
              );
            }, { ...RECORDS, queue: true }),
          ),
      );
      print(`worker ${summary.name} stopped: ${summary.results} result(s), ${summary.jobs} job(s) completed`);
    });

  program
    .command('workers')
    .description(summaryOf('workers'))
    .option('--db <url>', 'the PostgreSQL database (default ARENA_DB)')
    .option('--all', 'also workers that stopped or were declared dead')
    .option('--json', 'machine-readable output')
    .action(async (f: { db?: string; all?: boolean; json?: boolean }) => {
      const list = must(await withApp(f.db, (ctx) => listWorkers(ctx, { all: Boolean(f.all) })));
      print(f.json ? JSON.stringify(list) + '\n' : formatWorkers(list));
    });
}
