/** Small number formats shared by the pages (the wording is the CLI's: app/records/report-text.ts). */
import { percentText, ratingText } from '../app/records/report-text.ts';
import { h, type Markup } from './html.ts';

/** A number with `digits` decimals, or an en dash for null. */
export function num(v: number | null | undefined, digits = 0): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(digits);
}

/** A ladder rating as whole Elo points; an infinite one is ∞ or −∞. */
export const elo = (x: number): string => (Number.isFinite(x) ? num(x) : x > 0 ? '∞' : '−∞');

/** Milliseconds as ms or s. */
export function ms(v: number | null | undefined): string {
  if (v === null || v === undefined) return '–';
  return v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(v < 10 ? 2 : 0)} ms`;
}

/** A fraction as a percentage; 100% and 0% only when exact (299-0-1 is 99.7%); `open` as in percentText. */
export function pct(v: number | null | undefined, digits = 0, open = false): string {
  return v === null || v === undefined ? '–' : percentText(v, digits, open);
}

/** An Elo-like rating, signed; an infinite one (a 100% or 0% score) is +∞ or −∞, never a dash. */
export function rating(v: number | null | undefined, digits = 1): string {
  return v === null || v === undefined ? '–' : ratingText(v, digits, true);
}

/** Query helper: a link with parameters, values encoded. */
export function link(path: string, params: Record<string, string | number | undefined>): string {
  const q = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return q ? `${path}?${q}` : path;
}

/**
 * A stored instant as a `<time>` element: the text says the time in UTC, with the zone named, for a reader
 * without scripts; local-time.js rewrites it in the reader's own zone. Text that is not an instant is shown
 * as it is (escaped).
 */
export function when(iso: string): Markup {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return h`<span>${iso}</span>`;
  const utc = `${t.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return h`<time datetime="${t.toISOString()}" title="${t.toISOString()}">${utc}</time>`;
}
