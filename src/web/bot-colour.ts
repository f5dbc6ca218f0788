/**
 * One colour per bot, derived from its name alone, so a bot is drawn in the same colour on every page
 * (leaderboard, match, bot) and in every chart, whatever else shares the page. 24 hues 15° apart at two
 * lightnesses: 48 colours, chosen by a FNV-1a hash of the name.
 */
import { h, jsonBlock, type Markup } from './html.ts';

function fnv1a(text: string): number {
  let x = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    x ^= text.charCodeAt(i);
    x = Math.imul(x, 0x01000193) >>> 0;
  }
  return x;
}

/** The colour of `bot`, a CSS colour (hsl) that charts and SVG fills both take. */
export function botColour(bot: string): string {
  const x = fnv1a(bot);
  const hue = (x % 24) * 15;
  const light = (x >>> 8) & 1 ? 36 : 48;
  return `hsl(${hue}, 70%, ${light}%)`;
}

/** The colours of `bots` as a JSON block for the page's charts (charts.js reads `colours`). */
export function coloursBlock(bots: Iterable<string>): Markup {
  const out: Record<string, string> = {};
  for (const b of bots) out[b] = botColour(b);
  return jsonBlock('colours', out);
}

/**
 * A small square of the bot's colour beside its name in a table, the key to the charts. An SVG fill, not a
 * style attribute: the Content-Security-Policy allows no inline style.
 */
export function swatch(bot: string): Markup {
  return h`<svg class="swatch" width="10" height="10" viewBox="0 0 10 10" aria-hidden="true"><rect width="10" height="10" rx="2" fill="${botColour(bot)}"/></svg>`;
}
