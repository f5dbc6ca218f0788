/** Small number formats shared by the pages. */

/** A number with `digits` decimals, or an en dash for null. */
export function num(v: number | null | undefined, digits = 0): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(digits);
}

/** Milliseconds as ms or s. */
export function ms(v: number | null | undefined): string {
  if (v === null || v === undefined) return '–';
  return v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(v < 10 ? 2 : 0)} ms`;
}

/** A fraction as a percentage. */
export function pct(v: number | null | undefined): string {
  return v === null || v === undefined ? '–' : `${(v * 100).toFixed(0)}%`;
}

/** Query helper: a link with parameters, values encoded. */
export function link(path: string, params: Record<string, string | number | undefined>): string {
  const q = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return q ? `${path}?${q}` : path;
}
