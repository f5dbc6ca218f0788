import type { DistributedView } from '../../app/matches/distributed.ts';
import { h, type Markup } from '../html.ts';

function ago(seconds: number): string {
  return seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
}

/**
 * The workers section of a distributed match's page: job counts, why it waits (if it does), who refused a
 * bot, and every live worker with its CPU, last heartbeat and the jobs of this match it holds.
 */
export function workersSection(matchId: number, v: DistributedView): Markup {
  const p = v.progress;
  const rows = v.workers.map((w) => {
    const jobs = w.jobs.filter((j) => j.matchId === matchId);
    return h`<tr><td>${w.name}</td><td>${w.host}</td><td>${w.cpu}</td><td class="n">${w.concurrency}</td><td class="n">${ago(w.silentSeconds)} ago</td>
      <td>${jobs.length ? jobs.map((j) => h`<span>${j.bot} ×${j.scrambles}</span> `) : h`<span class="dim">${w.jobs.length ? 'other matches' : 'idle'}</span>`}</td></tr>`;
  });
  return h`<h2>Workers</h2>
<p id="jobs">jobs: ${p.queued} queued, ${p.active} active, ${p.completed} done${p.failed ? h`, <b>${p.failed} failed</b>` : ''}</p>
${p.stalled.length ? h`<ul id="stalled">${p.stalled.map((s) => h`<li>waiting: ${s}</li>`)}</ul>` : ''}
${p.refusals.length ? h`<ul id="refusals">${p.refusals.map((r) => h`<li>${r.worker} cannot start ${r.bot}: ${r.reason}</li>`)}</ul>` : ''}
<div class="scroll"><table id="workers"><thead><tr><th>worker</th><th>host</th><th>cpu</th><th>slots</th><th>heartbeat</th><th>jobs of this match</th></tr></thead>
<tbody>${rows.length ? rows : h`<tr><td colspan="6" class="dim">${noneLive(p.silentWorkers)}</td></tr>`}</tbody></table></div>`;
}

/** The empty table's line: workers that merely could not beat (a database outage) are not called gone. */
function noneLive(silent: readonly string[]): string {
  if (silent.length > 0) return `no heartbeat lately from ${silent.join(', ')}: not gone, but unable to reach the database`;
  return 'no live worker: start one with arena worker --db <this database>';
}
