/** Renders rows as an aligned text table; columns listed in `right` are right-aligned. */
export function renderTable(rows: readonly (readonly string[])[], right: ReadonlySet<number> = new Set()): string {
  if (rows.length === 0) return '';
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) => r.map((cell, c) => (right.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd())
    .join('\n');
}

/** Milliseconds as a short human duration. */
export function ms(v: number | null | undefined): string {
  if (v === null || v === undefined) return '-';
  if (v < 1) return `${v.toFixed(2)}ms`;
  if (v < 1000) return `${v.toFixed(v < 10 ? 1 : 0)}ms`;
  return `${(v / 1000).toFixed(v < 10_000 ? 2 : 1)}s`;
}

/** A number with a fixed number of decimals, or "-". */
export function num(v: number | null | undefined, digits = 1): string {
  if (v === null || v === undefined) return '-';
  if (!Number.isFinite(v)) return v > 0 ? '+inf' : '-inf';
  return v.toFixed(digits);
}
