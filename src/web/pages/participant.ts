import type { LadderView } from '../../app/ladder/ladder-status.ts';
import type { SubmissionView } from '../../app/submissions/submissions.ts';
import { num, pct, when } from '../format.ts';
import { h } from '../html.ts';
import { page } from '../layout.ts';

const elo = (x: number) => (Number.isFinite(x) ? num(x) : x > 0 ? '∞' : '−∞');

/**
 * A participant's page: their bots on the ladder (every version's status, its check result, games and
 * rating per class: public), and, for themselves and admins, their submissions with links to each one's
 * status and build log (`submissions` is undefined for anyone else).
 */
export function participantPage(name: string, ladder: LadderView, submissions: readonly SubmissionView[] | undefined): string {
  const prefix = `${name}/`;
  const versions = ladder.versions.filter((v) => v.bot.startsWith(prefix));
  const ratings = ladder.classes.flatMap((c) => c.ranking.filter((r) => r.bot.startsWith(prefix)).map((r) => ({ ...r, puzzleClass: c.puzzleClass })));
  const body = h`<h1>${name}</h1>
<h2>Bots on the ladder</h2>
${
  versions.length
    ? h`<div class="scroll"><table id="participant-versions"><thead><tr><th>bot</th><th>version</th><th>status</th><th>check</th><th>classes</th><th>since</th></tr></thead><tbody>${versions.map(
        (v) => h`<tr><td><a href="/ladder/bots/${encodeURIComponent(v.bot)}">${v.bot}</a></td><td class="n">v${v.number}${v.current ? '' : h` <span class="dim">(old)</span>`}</td><td>${v.status}</td><td>${v.note ?? (v.status === 'failed' ? 'failed' : v.status === 'new' ? '-' : 'passed')}</td><td>${v.classes.join(', ')}</td><td>${when(v.createdAt)}</td></tr>`,
      )}</tbody></table></div>`
    : h`<p class="note" id="participant-no-versions">No bot of ${name} is on the ladder yet.</p>`
}
${
  ratings.length
    ? h`<h2>Ratings</h2><div class="scroll"><table id="participant-ratings"><thead><tr><th>class</th><th>version</th><th>rating</th><th>95%</th><th>games</th><th>solved</th></tr></thead><tbody>${ratings.map(
        (r) => h`<tr><td>${r.puzzleClass}</td><td><a href="/ladder/bots/${encodeURIComponent(r.bot)}">${r.label}</a></td><td class="n">${elo(r.rating)}</td><td class="n dim">${elo(r.low)} … ${elo(r.high)}</td><td class="n">${r.games}</td><td class="n">${pct(r.solveRate)}</td></tr>`,
      )}</tbody></table></div>`
    : ''
}
${
  submissions === undefined
    ? ''
    : h`<h2>Submissions</h2>${
        submissions.length
          ? h`<div class="scroll"><table id="participant-submissions"><thead><tr><th>#</th><th>bot</th><th>status</th><th>why</th><th>received</th></tr></thead><tbody>${submissions.map(
              (s) => h`<tr><td class="n"><a href="/submissions/${s.id}">${s.id}</a></td><td>${s.bot}${s.ladderVersion !== undefined ? ` v${s.ladderVersion}` : ''}</td><td>${s.status}</td><td>${s.reason ?? ''}</td><td>${when(s.createdAt)}</td></tr>`,
            )}</tbody></table></div>`
          : h`<p class="note">No submissions yet: <a href="/submit">submit a bot</a>.</p>`
      }`
}`;
  return page({ title: name, body });
}
