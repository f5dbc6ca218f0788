import { stringify } from 'csv-stringify/sync';

/**
 * A text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a leading apostrophe:
 * error reasons and notes come from bots, and a hostile one must not plant a formula in someone's sheet.
 */
function defuse(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * RFC 4180 CSV of `rows` with the given columns (csv-stringify does the quoting): empty cells for null,
 * true/false for booleans, numbers as JavaScript prints them. `header` adds the column names first.
 */
export function toCsv<T extends object>(rows: readonly T[], columns: readonly (keyof T & string)[], header: boolean): string {
  return stringify(rows as T[], {
    header,
    columns: [...columns],
    cast: { boolean: (v) => (v ? 'true' : 'false'), string: (v) => defuse(v) },
  });
}
