import type { ParticipantBot, ParticipantBotVersion, SubmissionView } from '../../app/submissions/submissions.ts';
import { elo, when } from '../format.ts';
import { h } from '../html.ts';
import { page } from '../layout.ts';

/** A version's check as far as this viewer may see it: the note (a failed check's reason) is the owner's. */
function checkText(v: ParticipantBotVersion): string {
  if (v.note !== undefined) return v.note;
  if (v.status === 'failed') return 'failed';
  return v.status === 'placing' || v.status === 'placed' ? 'passed' : '–';
}

/** One version's row; the submission and build-log cells only for viewers who were given its submission. */
function versionRow(bot: string, v: ParticipantBotVersion, full: boolean) {
  const ratings = v.ratings.map((r) => h`<li>${r.puzzleClass}: <b>${elo(r.rating)}</b> <span class="dim">(${elo(r.low)} … ${elo(r.high)}, ${r.games} games)</span></li>`);
  const owner = full
    ? v.submission !== undefined
      ? h`<td class="n"><a href="/submissions/${v.submission}">${v.submission}</a></td><td><a class="build-log" href="/api/submissions/${v.submission}/log">build log</a></td>`
      : h`<td class="dim">–</td><td class="dim">–</td>`
    : '';
  return h`<tr><td class="n"><a href="/ladder/bots/${encodeURIComponent(bot)}#v${v.number}">v${v.number}</a></td><td>${v.status}</td><td>${checkText(v)}</td><td class="n">${v.games}</td><td>${ratings.length ? h`<ul class="ratings">${ratings}</ul>` : h`<span class="dim">–</span>`}</td>${owner}<td>${when(v.createdAt)}</td></tr>`;
}

/**
 * A participant's page (participantBots): each bot with one row per version, newest first: its number,
 * status, check, games and rating per class. For themselves and admins (`submissions` given) each version
 * also links its submission and build log, and their submissions are listed (failed builds too, which never
 * reach the ladder); anyone else sees names, versions, ratings and results only.
 */
export function participantPage(name: string, bots: readonly ParticipantBot[], submissions: readonly SubmissionView[] | undefined): string {
  const full = submissions !== undefined;
  const body = h`<h1>${name}</h1>
<h2>Bots</h2>
${
  bots.length
    ? bots.map(
        (b) => h`<section class="participant-bot"><h3><a href="/bots/${encodeURIComponent(b.name)}">${b.name}</a>${b.registered ? '' : h` <span class="dim">(withdrawn)</span>`}</h3>
${
  b.versions.length
    ? h`<div class="scroll"><table class="participant-versions"><thead><tr><th>version</th><th>status</th><th>check / note</th><th>games</th><th>rating per class</th>${full ? h`<th>submission</th><th>build</th>` : ''}<th>since</th></tr></thead><tbody>${b.versions.map((v) => versionRow(b.name, v, full))}</tbody></table></div>`
    : h`<p class="note">No version on the ladder yet.</p>`
}</section>`,
      )
    : h`<p class="note" id="participant-no-bots">${name} has no bots yet.</p>`
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
}
<p class="dim">As JSON: <a href="/api/participants/${encodeURIComponent(name)}">/api/participants/${name}</a></p>`;
  return page({ title: name, body });
}
