import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContext, type OpenContext } from '../../src/app/context.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { startWebServer, type WebServer } from '../../src/web/server.ts';
import { spawnArena } from './helpers.ts';

// One match walked through every surface that shows a scramble number: the CLI table (`arena show`), its
// --json, `arena export`, the web page's HTML, /api, the replay URL and `arena replay`. Under number k
// each must show the scramble the store keeps at index k - 1: the same start state, the same answer.

const BOTS = ['reference-bfs', 'dijkstra'];
const COUNT = 4;

async function arena(args: string[]): Promise<string> {
  const r = await spawnArena(args, {}).done;
  if (r.code !== 0) throw new Error(`arena ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

interface Truth {
  /** Per bot, per number k (1…COUNT): the stored answer's length and moves. */
  readonly moves: Map<string, { count: number; text: string }>;
  readonly state: Map<number, PuzzleState>;
}

describe('scramble numbers - one numbering, from 1, on every surface', () => {
  let dir: string;
  let db: string;
  let ctx: OpenContext;
  let server: WebServer;
  let id: number;
  const truth: Truth = { moves: new Map(), state: new Map() };
  const key = (k: number, bot: string) => `${k}/${bot}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-numbers-'));
    db = join(dir, 'n.db');
    id = (JSON.parse(await arena(['match', ...BOTS, '--puzzle', 'sliding', '--size', '3', '--count', String(COUNT), '--seed', '21', '--json', '--db', db])) as { match: { id: number } }).match.id;
    const opened = await openContext({ db });
    if (!opened.ok) throw new Error(opened.reason);
    ctx = opened.value;
    // The store's own view, by 0-based index: the internal truth every surface is compared with.
    const scrambles = await ctx.store.listScrambles(id);
    for (const s of scrambles) truth.state.set(s.index + 1, s.state);
    for (const r of await ctx.store.listResults(id)) {
      const s = scrambles.find((x) => x.id === r.scrambleId)!;
      truth.moves.set(key(s.index + 1, r.bot), { count: r.moveCount, text: String(r.moves) });
    }
    // The test can only fail on a shift if neighbouring scrambles differ.
    const texts = [1, 2, 3, 4].map((k) => truth.moves.get(key(k, BOTS[0]))!.text);
    expect(new Set(texts).size).toBe(COUNT);
    server = await startWebServer(ctx, { host: '127.0.0.1', port: 0 });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await ctx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('CLI table - row k shows the moves of the stored answers at index k - 1', async () => {
    const lines = (await arena(['show', String(id), '--db', db])).split('\n');
    for (let k = 1; k <= COUNT; k++) {
      const row = lines.find((l) => new RegExp(`^${k}\\s+[=≥]`).test(l))!;
      expect(row, `row ${k}`).toBeDefined();
      const moves = [...row.matchAll(/(\d+) in /g)].map((m) => Number(m[1]));
      expect(moves, `row ${k}`).toEqual(BOTS.map((b) => truth.moves.get(key(k, b))!.count));
    }
  });

  it('--json and /api - scramble k carries the results of index k - 1, numbered from 1', async () => {
    const cli = JSON.parse(await arena(['show', String(id), '--json', '--db', db]));
    const api = await (await fetch(`${server.url}/api/matches/${id}`)).json();
    expect(api).toEqual(cli);
    expect(cli.scrambles.map((s: { scramble: number }) => s.scramble)).toEqual([1, 2, 3, 4]);
    for (const r of cli.results as { scramble: number; bot: string; moves: number }[]) {
      expect(r.moves, key(r.scramble, r.bot)).toBe(truth.moves.get(key(r.scramble, r.bot))!.count);
    }
  });

  it('export - scramble k has the answer stored at index k - 1', async () => {
    const rows = (await arena(['export', String(id), '--format', 'jsonl', '--with-moves', '--db', db]))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { scramble: number; bot: string; moves: number; solution: string });
    expect(rows).toHaveLength(COUNT * BOTS.length);
    for (const r of rows) expect(r.solution, key(r.scramble, r.bot)).toBe(truth.moves.get(key(r.scramble, r.bot))!.text);
  });

  it('web page - row k links to /replay/<match>/k, and the replay there starts from the state at index k - 1', async () => {
    const html = await (await fetch(`${server.url}/matches/${id}`)).text();
    for (let k = 1; k <= COUNT; k++) {
      const row = new RegExp(`<tr><td class="n">${k}</td>(.*?)</tr>`, 's').exec(html)?.[1];
      expect(row, `row ${k}`).toBeDefined();
      for (const b of BOTS) {
        expect(row).toContain(`href="/replay/${id}/${k}/${b}"`);
        expect(row).toContain(`>${truth.moves.get(key(k, b))!.count}</a>`);
        const frame = await (await fetch(`${server.url}/api/replay/${id}/${k}/${b}?at=0`)).json();
        expect(frame.scramble).toBe(k);
        expect(frame.state, `/replay/${id}/${k}/${b}`).toEqual(truth.state.get(k));
        expect(frame.legalMoves).toBe(truth.moves.get(key(k, b))!.count);
      }
      const page = await fetch(`${server.url}/replay/${id}/${k}/${BOTS[0]}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`scramble ${k} `);
    }
    expect((await fetch(`${server.url}/replay/${id}/0/${BOTS[0]}`)).status).toBe(404);
    expect((await fetch(`${server.url}/replay/${id}/${COUNT + 1}/${BOTS[0]}`)).status).toBe(404);
  });

  it('arena replay - scramble k starts from the state at index k - 1 and replays its answer', async () => {
    for (let k = 1; k <= COUNT; k++) {
      const lines = (await arena(['replay', String(id), String(k), BOTS[1], '--json', '--db', db])).trim().split('\n').map((l) => JSON.parse(l));
      expect(lines[0].state, `replay ${k}`).toEqual(truth.state.get(k));
      expect(lines.at(-1).check.moves).toBe(truth.moves.get(key(k, BOTS[1]))!.count);
    }
  });
});
