import { currentParticipant } from './current-participant.ts';
import { h, type Markup } from './html.ts';

/** What a page puts in the shell. */
export interface PageParts {
  readonly title: string;
  readonly body: Markup;
  /** Scripts under /static (no inline scripts: the Content-Security-Policy forbids them). */
  readonly scripts?: readonly string[];
  /** Pages with charts load uPlot and its stylesheet. */
  readonly charts?: boolean;
}

/** The header's corner: the signed-in participant's name and a sign-out button, or a sign-in link. */
function whoPart(): Markup {
  const who = currentParticipant();
  if (!who) return h`<a class="who" href="/sign-in">Sign in</a>`;
  return h`<form class="who" method="post" action="/sign-out"><a href="/submit">Submit</a> <a href="/participants/${encodeURIComponent(who.name)}"><span id="who">${who.name}</span></a> <button type="submit">Sign out</button></form>`;
}

/** The page shell: header, navigation, the body, scripts from /static only (every page shows times in the reader's zone). */
export function page(p: PageParts): string {
  return h`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${p.title} · puzzle-arena</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
${p.charts ? h`<link rel="stylesheet" href="/static/uplot.min.css">` : ''}
</head>
<body>
<header class="top">
  <a class="brand" href="/">puzzle-arena</a>
  <nav><a href="/">Leaderboard</a><a href="/matches">Matches</a><a href="/ladder">Ladder</a><a href="/bots">Bots</a></nav>
  ${whoPart()}
</header>
<main>
${p.body}
</main>
${p.charts ? h`<script src="/static/uplot.iife.min.js"></script>` : ''}
${(p.scripts ?? []).map((s) => h`<script src="/static/${s}"></script>`)}
<script src="/static/local-time.js"></script>
</body>
</html>
`.text;
}

/** A page saying what was not found or what was wrong with the request. */
export function problemPage(title: string, message: string): string {
  return page({ title, body: h`<h1>${title}</h1><p class="problem">${message}</p><p><a href="/">Back to the leaderboard</a></p>` });
}
