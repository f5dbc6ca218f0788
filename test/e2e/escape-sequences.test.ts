import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { ESCAPES } from '../fixtures/bots/escaper.ts';
import { ROOT, spawnArena } from './helpers.ts';

/** Bytes a terminal would act on: C0 but tab and newline, DEL, and C1 (as UTF-8 decodes it). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** The payload as the CLI shows it: every control character spelled \u00XX. */
const SHOWN = String.raw`ESCAPER-TEXT\u001b[2K\u000d\u009b31m\u007f`;

let dir = '';
let db = '';

async function arena(args: string[]) {
  const r = await spawnArena([...args, '--db', db], {}).done;
  return r;
}

/** Nothing a terminal would obey, and the bot's text present, escaped. */
function expectShownNotObeyed(r: { stdout: string; stderr: string }, where: 'stdout' | 'stderr' | 'both' = 'both') {
  expect(r.stdout).not.toMatch(RAW_CONTROL);
  expect(r.stderr).not.toMatch(RAW_CONTROL);
  const text = where === 'both' ? r.stdout + r.stderr : r[where];
  expect(text).toContain(SHOWN);
  expect(text).toContain(String.raw`\u001b]0;PWNED-TITLE\u0007\u001b]52;c;cm0gLXJmIH4=\u0007`);
}

describe('text from bots is shown, never obeyed', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-escapes-'));
    db = join(dir, 'escapes.db');
    const loader = pathToFileURL(tsxLoaderPath(ROOT)!).href;
    const cmd = (mode: string) => `"${process.execPath}" --import ${loader} "${join(ROOT, 'test/fixtures/bots/escaper.ts')}" --${mode}`;
    // Two over stdio, one over a WebSocket; all three confined as any registered bot is.
    for (const [name, mode, stdio] of [['esc-give-up', 'give-up', true], ['esc-note', 'note', false], ['esc-crash', 'crash', true]] as const) {
      const r = await arena(['bot', 'add', name, '--cmd', cmd(mode), ...(stdio ? ['--stdio'] : [])]);
      expect(r.code, r.stderr).toBe(0);
    }
  }, 60_000);

  it('match - a give-up reason and a stderr tail holding OSC/CSI sequences reach the terminal escaped', async () => {
    const r = await arena(['match', 'esc-give-up', 'esc-note', 'esc-crash', '--puzzle', 'sliding', '--size', '2', '--count', '2', '--seed', '5']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/gave-up: escaper: /);
    expect(r.stdout).toMatch(/crash: .*stderr:\nescaper: /);
    expectShownNotObeyed(r, 'stdout');
  }, 120_000);

  it('show - the stored reasons are escaped as the live report escaped them', async () => {
    const r = await arena(['show', '1']);
    expect(r.code, r.stderr).toBe(0);
    expectShownNotObeyed(r, 'stdout');
    const json = await arena(['show', '1', '--json']);
    expect(json.stdout).not.toMatch(RAW_CONTROL);
    // JSON keeps the data: the escapes are JSON's own, so parsing gives the bot's bytes back.
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain(JSON.stringify(ESCAPES).slice(1, -1));
  }, 60_000);

  it('export - CSV and JSON Lines on stdout escape reasons and notes; JSON Lines keep the exact data', async () => {
    const csv = await arena(['export', '1']);
    expect(csv.code, csv.stderr).toBe(0);
    expectShownNotObeyed(csv, 'stdout');
    const jsonl = await arena(['export', '1', '--format', 'jsonl']);
    expect(jsonl.code, jsonl.stderr).toBe(0);
    expect(jsonl.stdout).not.toMatch(RAW_CONTROL);
    const rows = jsonl.stdout.trim().split('\n').map((l) => JSON.parse(l) as { bot: string; note?: string | null; error?: string | null });
    expect(rows.find((x) => x.bot === 'esc-note')!.note).toBe(`escaper: ${ESCAPES}`);
    expect(rows.find((x) => x.bot === 'esc-give-up')!.error).toBe(`escaper: ${ESCAPES}`);
    expect(rows.find((x) => x.bot === 'esc-crash')!.error).toContain(`escaper: ${ESCAPES}`);
  }, 60_000);

  it('export --out - the file keeps the bot\'s bytes (a file is not a terminal) and the command says where it wrote', async () => {
    const file = join(dir, 'out.csv');
    const r = await arena(['export', '1', '--out', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^wrote 6 results as csv to ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(.+\\)\\n$`));
    expect(readFileSync(file, 'utf8')).toContain(ESCAPES);
    const board = join(dir, 'board.json');
    const lb = await arena(['leaderboard', '--format', 'json', '--out', board]);
    expect(lb.code, lb.stderr).toBe(0);
    expect(lb.stderr).toContain(`wrote the leaderboard as json to ${board}`);
    expect(JSON.parse(readFileSync(board, 'utf8'))).toHaveLength(1);
  }, 60_000);
});
