import {
  followMatch,
  resumeDistributedMatch,
  startDistributedMatch,
  type Distributed,
  type DistributedProgress,
} from '../../app/matches/distributed.ts';
import { jsonText } from '../../app/records/json-text.ts';
import { showMatch, type StartMatchOptions } from '../../app/matches/matches.ts';
import { keyMadeNotice, RECORDS, sealingWarning } from '../../app/seal-keys.ts';
import { withApp } from '../context.ts';
import { must } from '../errors.ts';
import { withInterrupt } from '../interrupt.ts';
import { formatMatchReport } from '../format-report.ts';
import { terminalText } from '../terminal-text.ts';

/** Where a command writes: stdout for the result, stderr for progress and notes. */
export interface Out {
  print(text: string): void;
  info(text: string): void;
}

/** One progress line: results, jobs, workers. */
export function progressLine(p: DistributedProgress): string {
  const width = 24;
  const filled = Math.round((p.results / Math.max(1, p.total)) * width);
  const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
  const silent = p.silentWorkers.length > 0 ? `${p.silentWorkers.length} silent` : '';
  const workers = p.liveWorkers.length === 0 ? (silent ? `worker(s): ${silent}` : 'no live worker') : `${p.liveWorkers.length} worker(s)${silent ? `, ${silent}` : ''}`;
  return `[${bar}] ${p.results}/${p.total}  jobs ${p.queued} queued, ${p.active} active, ${p.completed} done${p.failed ? `, ${p.failed} failed` : ''}  ${workers}`;
}

/** The progress of a distributed match as lines, for `arena show`. */
export function formatProgress(id: number, p: DistributedProgress): string {
  const lines = [`distributed match ${id} (${p.status}): ${progressLine(p)}`];
  if (p.liveWorkers.length) lines.push(`live workers: ${p.liveWorkers.join(', ')}`);
  if (p.silentWorkers.length) lines.push(`silent workers (not heard from lately, not declared dead): ${p.silentWorkers.join(', ')}`);
  for (const r of p.refusals) lines.push(`${r.worker} cannot start ${r.bot}: ${r.reason}`);
  for (const s of p.stalled) lines.push(`waiting: ${s}`);
  return lines.join('\n') + '\n';
}

/**
 * `arena match … --distributed` and `arena match --resume <id> --distributed`: queue the match, then follow
 * it until it finishes (the report is printed) or Ctrl-C (the watcher leaves; workers go on).
 * Exit code 0 finished, 130 when the watcher left or the match was stopped.
 */
export async function runDistributedMatch(
  db: string | undefined,
  what: { start: StartMatchOptions } | { resume: number },
  batch: number | undefined,
  json: boolean,
  out: Out,
): Promise<number> {
  const tty = process.stderr.isTTY;
  let lastStalled = '';
  let drawn = false;
  const follow = (signal: AbortSignal) =>
    withApp(db, async (ctx) => {
      const warning = sealingWarning(ctx);
      if (warning) out.info(warning);
      const opts = { ...(batch !== undefined ? { batch } : {}), notice: out.info };
      const queued: Distributed = must('start' in what ? await startDistributedMatch(ctx, what.start, opts) : await resumeDistributedMatch(ctx, what.resume, opts));
      const made = keyMadeNotice(ctx);
      if (made) out.info(made);
      const id = queued.match.id;
      out.info(`match ${id}: ${queued.jobs} job(s) of up to ${queued.batch} scramble(s) queued; workers play them (arena worker --db <this database>)`);
      const end = must(
        await followMatch(ctx, id, {
          signal,
          onProgress: (p) => {
            if (tty) {
              process.stderr.write(`\r${terminalText(progressLine(p))}`.slice(0, (process.stderr.columns || 100) - 1).padEnd((process.stderr.columns || 100) - 1));
              drawn = true;
            }
            const stalled = p.stalled.join('\n');
            if (stalled && stalled !== lastStalled) {
              if (drawn) process.stderr.write('\n');
              drawn = false;
              out.info(p.stalled.map((s) => `waiting: ${s}`).join('\n'));
            }
            lastStalled = stalled;
          },
          onError: (message) => out.info(`database: ${message} (retrying)`),
        }),
      );
      if (drawn) process.stderr.write('\n');
      if (end === 'detached') {
        out.info(`left match ${id} running on the workers; follow it with: arena show ${id}`);
        return 130;
      }
      if (end === 'stopped') out.info(`match ${id} was stopped; queue what is missing with: arena match --resume ${id} --distributed`);
      const report = must(await showMatch(ctx, id));
      out.print(json ? jsonText(report) + '\n' : formatMatchReport(report));
      return end === 'finished' ? 0 : 130;
    }, { ...RECORDS, queue: true });
  // Ctrl-C only stops the watching; the workers go on.
  return withInterrupt(() => undefined, follow);
}
