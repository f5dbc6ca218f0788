import type { ReplayInfo } from '../../app/records/replay-seek.ts';
import { h, jsonBlock } from '../html.ts';
import { page } from '../layout.ts';
import type { BotStderrView } from '../../app/records/bot-stderr.ts';
import { stderrPanels } from './stderr-panel.ts';

/** One board of a replay page. */
function board(info: ReplayInfo, side: number) {
  const solvedNow = info.outcome.verdict === 'solved';
  return h`<section class="board" data-side="${side}">
  <h2><a href="/bots/${encodeURIComponent(info.bot)}">${info.bot}</a> <span class="dim">${info.verdict}, ${info.recordedMoves} moves</span></h2>
  ${solvedNow || info.verdict !== 'solved' ? '' : h`<p class="problem">The stored moves no longer solve this scramble: ${info.outcome.verdict === 'invalid' ? info.outcome.reason : ''}</p>`}
  <canvas class="view" width="480" height="480" aria-label="board of ${info.bot}"></canvas>
  <p class="at">move <span class="index">0</span> / <span class="total">${info.legalMoves}</span></p>
  <pre class="state" hidden></pre>
</section>`;
}

/**
 * A stored answer animated on a drawn board; two bots side by side step together. `stderr`: the bots' stderr
 * of the match that the viewer may read, shown below the boards.
 */
export function replayPage(infos: readonly ReplayInfo[], stderr: readonly BotStderrView[] = []): string {
  const first = infos[0];
  const longest = Math.max(...infos.map((i) => i.legalMoves));
  const body = h`<h1>Replay <a href="/matches/${first.match}">match ${first.match}</a>, scramble ${first.scramble} <span class="dim">${first.puzzleClass}</span></h1>
<div class="controls" role="group" aria-label="replay controls">
  <button id="start" title="first move">«</button><button id="back" title="one move back">◀</button>
  <button id="play">Play</button><button id="fwd" title="one move forward">▶</button><button id="end" title="last move">»</button>
  <label>speed <select id="speed"><option value="1">1/s</option><option value="5">5/s</option><option value="20" selected>20/s</option><option value="100">100/s</option><option value="1000">1000/s</option></select></label>
  <input id="slider" type="range" min="0" max="${longest}" value="0" aria-label="move index">
  <label>move <input id="goto" type="number" min="0" max="${longest}" value="0"></label>
</div>
<div class="boards">${infos.map((info, i) => board(info, i))}</div>
${stderrPanels(stderr)}
${jsonBlock('replay', infos.map((i) => ({ match: i.match, scramble: i.scramble, bot: i.bot, total: i.legalMoves })))}`;
  return page({ title: `Replay ${first.match}/${first.scramble}`, body, scripts: ['board.js', 'replay.js'] });
}
