/**
 * Writes the rows of `arena export` as CSV or JSON Lines. A row's answer (--with-moves) arrives in pieces
 * from the store; an answer of one piece (nearly all) is written with its row as a whole, and a longer one
 * is streamed into the same bytes the whole row would give, so no answer is ever held whole.
 */
import type { ExportItem, ExportRow } from '../app/records/export.ts';
import { toCsv } from './csv.ts';

/** Where the text goes. */
export interface ExportOut {
  write(text: string): void;
}

/** csv-stringify quotes a field holding any of these. */
const NEEDS_QUOTES = /[",\r\n]/;
/** What toCsv's defuse prefixes with an apostrophe (a formula a spreadsheet would run). */
const FORMULA_START = /^[=+\-@\t\r]/;

type Columns = readonly (keyof ExportRow | 'solution')[];

function whole(row: ExportRow & { solution?: string }, format: 'csv' | 'jsonl', columns: Columns, header: boolean): string {
  return format === 'csv' ? toCsv([row], columns as (keyof typeof row & string)[], header) : `${JSON.stringify(row)}\n`;
}

/** Writes one exported result; `header` asks for the CSV header line before it. */
export async function writeExportItem(out: ExportOut, item: ExportItem, format: 'csv' | 'jsonl', columns: Columns, header: boolean): Promise<void> {
  if (!item.solution) return out.write(whole(item.row, format, columns, header));
  const pieces = item.solution()[Symbol.asyncIterator]();
  const first = await pieces.next();
  const second = first.done ? first : await pieces.next();
  if (second.done) return out.write(whole({ ...item.row, solution: first.done ? '' : first.value }, format, columns, header));
  if (format === 'jsonl') {
    // The row's JSON with the solution as its last key, the string's escapes written piece by piece.
    out.write(`${JSON.stringify(item.row).slice(0, -1)},"solution":"`);
    out.write(JSON.stringify(first.value).slice(1, -1));
    for (let n: IteratorResult<string> = second; !n.done; n = await pieces.next()) out.write(JSON.stringify(n.value).slice(1, -1));
    return out.write('"}\n');
  }
  await pieces.return?.();
  // Whether CSV quotes the cell depends on the whole answer: one pass to look, one to write.
  let quote = false;
  for await (const piece of item.solution()) quote ||= NEEDS_QUOTES.test(piece);
  const q = quote ? '"' : '';
  out.write(`${whole({ ...item.row, solution: '' }, 'csv', columns, header).slice(0, -1)}${q}${FORMULA_START.test(first.value) ? "'" : ''}`);
  for await (const piece of item.solution()) out.write(quote ? piece.replaceAll('"', '""') : piece);
  out.write(`${q}\n`);
}
