/**
 * Bot colours, assigned per page: the bots a page shows, in code-point order of their names (so a page
 * gives the same colours on every load, whatever the ratings do), take the palette's colours in turn.
 * A name hash cannot promise that: with 48 hashed hues two bots on one page were both purple. The price
 * is that a bot may have another colour on another page; within a page every bot has its own colour.
 */
import { h, jsonBlock, type Markup } from './html.ts';

/**
 * Ten colours that read as lines and swatches on white and stay apart from each other (d3's category10
 * with the yellow-green olive darkened); none is the near-black of a chart's optimum line.
 */
export const PALETTE: readonly string[] = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#9a9b1b'];

/**
 * The colour for the `i`-th bot of a page: the palette first, then hues a golden angle apart at alternating
 * lightness, each a different colour (a page with more than ten bots is rare, but still gets distinct ones).
 */
export function paletteColour(i: number): string {
  if (i < PALETTE.length) return PALETTE[i];
  const k = i - PALETTE.length;
  const hue = Math.round((k * 137.508) % 360);
  return `hsl(${hue}, 65%, ${k % 2 ? 32 : 46}%)`;
}

/** The colours of one page: every bot it shows, each with a colour no other bot on the page has. */
export class PageColours {
  private readonly byBot = new Map<string, string>();

  /** `bots` may repeat and come in any order: colours follow the sorted distinct names. */
  constructor(bots: Iterable<string>) {
    const names = [...new Set(bots)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    names.forEach((b, i) => this.byBot.set(b, paletteColour(i)));
  }

  /** The colour of `bot` on this page (a bot the page did not name is a programmer error). */
  of(bot: string): string {
    const c = this.byBot.get(bot);
    if (c === undefined) throw new Error(`no colour assigned to bot "${bot}" on this page`);
    return c;
  }

  /** The colours as a JSON block for the page's charts (charts.js reads `colours`). */
  block(): Markup {
    return jsonBlock('colours', Object.fromEntries(this.byBot));
  }

  /**
   * A small square of the bot's colour beside its name in a table, the key to the charts. An SVG fill, not
   * a style attribute: the Content-Security-Policy allows no inline style.
   */
  swatch(bot: string): Markup {
    return h`<svg class="swatch" width="10" height="10" viewBox="0 0 10 10" aria-hidden="true"><rect width="10" height="10" rx="2" fill="${this.of(bot)}"/></svg>`;
  }
}
