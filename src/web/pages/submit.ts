import type { SubmissionView } from '../../app/submissions/submissions.ts';
import { when } from '../format.ts';
import { h } from '../html.ts';
import { page } from '../layout.ts';

/** How often a submission's page reloads itself until it is placed or failed (a Refresh header: no inline script). */
export const SUBMISSION_REFRESH_SECONDS = 2;

/**
 * The upload form: an archive, or (where the browser can pick a folder) a folder that static/submit-folder.js
 * packs into a .tar.gz in the page and puts in the archive field; either way one csrf-checked POST to /submit.
 */
export function submitPage(maxText: string, problem?: string): string {
  const body = h`<h1>Submit a bot</h1>
${problem ? h`<p class="problem" id="submit-problem">${problem}</p>` : ''}
<p>A bot is a folder with an <code>arena-bot.json</code> manifest at its top. Upload it as a <code>.tar.gz</code>, <code>.tar</code> or <code>.zip</code> of at most ${maxText}, or choose the folder itself.</p>
<form method="post" action="/submit" enctype="multipart/form-data" id="submit-form">
<p><label>Archive <input type="file" name="archive" id="archive" accept=".tar.gz,.tgz,.tar,.zip,application/gzip,application/x-tar,application/zip"></label></p>
<p id="folder-choice" hidden><label>or a folder <input type="file" id="folder" webkitdirectory></label> <span class="dim" id="folder-status"></span></p>
<p><button type="submit">Submit</button></p>
</form>
<p class="dim">The same upload from a terminal: <code>arena submit DIR --server URL</code>, or <code>curl -H "Authorization: Bearer $TOKEN" --data-binary @bot.tar.gz URL/api/submissions</code>. What a build may use: <a href="/toolchains">toolchains</a>.</p>`;
  return page({ title: 'Submit a bot', body, scripts: ['submit-folder.js'] });
}

/** One submission: its status (the page reloads until it is final), why it failed, and its build log. */
export function submissionPage(s: SubmissionView, log: string | undefined, final: boolean): string {
  const body = h`<h1>Submission ${s.id} <span class="dim">${s.bot}</span></h1>
<p>Status: <b id="submission-status">${s.status}</b>${s.reason ? h` — <span id="submission-reason">${s.reason}</span>` : ''}</p>
<table id="submission-facts"><tbody>
<tr><th>participant</th><td><a href="/participants/${encodeURIComponent(s.participant)}">${s.participant}</a></td></tr>
<tr><th>bot</th><td>${s.bot}${s.ladderVersion !== undefined ? h` v${s.ladderVersion} (<a href="/ladder/bots/${encodeURIComponent(s.bot)}">on the ladder</a>)` : ''}</td></tr>
<tr><th>version</th><td><code>${s.version ?? '-'}</code></td></tr>
<tr><th>received</th><td>${when(s.createdAt)}</td></tr>
<tr><th>last change</th><td>${when(s.updatedAt)}</td></tr>
</tbody></table>
${final ? '' : h`<p class="note">received → building → checking → placing → placed: this page reloads every ${SUBMISSION_REFRESH_SECONDS} s until it is placed or failed.</p>`}
<h2>Build log</h2>
${log ? h`<pre id="build-log">${log}</pre>` : h`<p class="dim" id="build-log-empty">No build output${s.status === 'received' ? ' yet' : ''}.</p>`}`;
  return page({ title: `Submission ${s.id}`, body });
}
