import type { ParticipantRecord } from '../../app/participants/participants.ts';
import { h } from '../html.ts';
import { page } from '../layout.ts';

/** The sign-in form (a token, POSTed to this server only), or who is signed in; `problem` says what failed. */
export function signInPage(who: ParticipantRecord | undefined, problem?: string): string {
  const body = who
    ? h`<h1>Signed in</h1><p>You are signed in as <strong id="signed-in-as">${who.name}</strong>${who.admin ? ' (admin)' : ''}.</p>
<form method="post" action="/sign-out"><button type="submit">Sign out</button></form>`
    : h`<h1>Sign in</h1>${problem ? h`<p class="problem" id="sign-in-problem">${problem}</p>` : ''}
<form method="post" action="/sign-in" id="sign-in">
<label>Token <input type="password" name="token" autocomplete="current-password" required size="50"></label>
<button type="submit">Sign in</button>
</form>
<p class="dim">Your token was printed once when your account was made (<code>arena user add</code>); ask the arena's admin for a new one if it is lost.</p>`;
  return page({ title: 'Sign in', body });
}
