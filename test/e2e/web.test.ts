import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContext, type OpenContext } from '../../src/app/context.ts';
import { allFrames } from '../../src/app/records/replay-frames.ts';
import { leaderboard } from '../../src/app/records/leaderboard.ts';
import { startWebServer, type WebServer } from '../../src/web/server.ts';
import { spawnArena, waitFor } from './helpers.ts';

const CHROMIUM = process.env.ARENA_CHROMIUM ?? '/usr/bin/chromium';
// Under CI the browser must be there (.ci/run installs it); elsewhere a missing browser skips with a reason.
const haveBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';
const XSS_NAME = '<img src=x onerror=alert(1)>';

async function arena(args: string[]): Promise<string> {
  const r = await spawnArena(args, {}).done;
  if (r.code !== 0) throw new Error(`arena ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** Pixels a canvas has painted (alpha not 0): a chart that drew nothing has none beyond its axes' few. */
function inkOn(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const c = document.querySelector(sel) as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) ink++;
    return ink;
  }, selector);
}

/** Each series of a chart's legend: its label and the colour of its marker. */
function legendColours(page: Page, chart: string): Promise<Record<string, string>> {
  return page.evaluate((sel) => {
    const out: Record<string, string> = {};
    for (const row of document.querySelectorAll(`${sel} .u-legend .u-series`)) {
      const marker = row.querySelector('.u-marker') as HTMLElement | null;
      if (marker) out[row.querySelector('.u-label')!.textContent!] = getComputedStyle(marker).borderColor;
    }
    return out;
  }, chart);
}

/** A #rrggbb colour as getComputedStyle writes it. */
function hexToRgb(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
}

/** The ticks uPlot chose for each axis of a chart (its own splits). */
function axisTicks(page: Page, chart: string): Promise<number[][]> {
  return page.evaluate((id) => (window as unknown as { arenaCharts: { plots: Record<string, { axes: { _splits: number[] }[] }> } }).arenaCharts.plots[id].axes.map((a) => a._splits), chart);
}

describe.skipIf(!haveBrowser)('web view - in Chromium on a database made by real matches', () => {
  let dir: string;
  let db: string;
  let ctx: OpenContext;
  let server: WebServer;
  let browser: Browser;
  const alerts: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-web-'));
    db = join(dir, 'web.db');
    await arena(['match', 'reference-bfs', 'dijkstra', '--puzzle', 'sliding', '--size', '3', '--count', '3', '--seed', '7', '--db', db]);
    await arena(['match', 'hanoi-recursive', 'hanoi-iterative', '--puzzle', 'hanoi', '--discs', '5', '--count', '2', '--seed', '7', '--db', db]);
    const opened = await openContext({ db });
    if (!opened.ok) throw new Error(opened.reason);
    ctx = opened.value;
    // A contestant's strings as hostile as they come (written straight to the store: the CLI refuses such a
    // name today, but a database from elsewhere, or a remote bot's messages, may still carry them).
    await ctx.store.addBot({ name: XSS_NAME, kind: 'command', cmd: '<script>alert(3)</script>' });
    const [scramble] = (await ctx.store.listScrambles(1)).slice(0, 1);
    const m = await ctx.store.createMatch({
      config: { note: '<script>alert(4)</script>' },
      seed: '"><script>alert(5)</script>',
      generatorVersion: 'g',
      bots: [XSS_NAME, 'dijkstra'],
      scrambles: [{ index: 0, state: scramble.state, puzzleClass: scramble.puzzleClass, bound: scramble.bound }],
    });
    const [s] = await ctx.store.listScrambles(m.id);
    await ctx.store.recordResult({ scrambleId: s.id, bot: XSS_NAME, verdict: 'crash', moveCount: 0, moves: '', wallMs: 1, error: '<script>alert(2)</script>', note: '<b onmouseover=alert(6)>' });
    await ctx.store.setMatchStatus(m.id, 'finished');
    // Match 4: an SPRT that decides (a weighted search loses on moves), played by the real CLI.
    await arena(['match', 'ida-star', 'ida-star --weight 3', '--puzzle', 'sliding', '--size', '3', '--sprt', 'elo0=0,elo1=20', '--count', '200', '--seed', '7', '--db', db, '--quiet']);
    server = await startWebServer(ctx, { host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await ctx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(path: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('dialog', (d) => {
      alerts.push(d.message());
      void d.dismiss();
    });
    const res = await page.goto(server.url + path);
    expect(res?.status()).toBe(200);
    return page;
  }

  it('leaderboard - lists the bots of a class in rating order with a rating history chart', async () => {
    const page = await open('/?class=' + encodeURIComponent('sliding 3x3'));
    const rows = await page.locator('#leaderboard tbody tr').allTextContents();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    // The leaderboard's own order: established bots by rating, then provisional ones (few games) by rating.
    const names = await page.locator('#leaderboard tbody tr td:nth-child(2) a').allTextContents();
    const [board] = await leaderboard(ctx, { puzzleClass: 'sliding 3x3' });
    expect(names).toEqual(board!.entries.map((e) => e.bot));
    await page.waitForSelector('#history-chart canvas');
    await page.screenshot({ path: join(process.env.ARENA_SCREENSHOT_DIR ?? dir, 'leaderboard.png'), fullPage: true });
    await page.close();
  });

  it('leaderboard - opens on the class of the newest match (sliding 3x3), not the alphabetically first (hanoi 5)', async () => {
    const page = await open('/');
    expect(await page.textContent('h1')).toBe('Leaderboard sliding 3x3');
    expect(await page.locator('nav.classes a.chip').first().textContent()).toBe('hanoi 5');
    await page.close();
  });

  it('colours - within a page every bot has its own colour, the same in its chart line as in the page\'s colour key', async () => {
    for (const [path, chart] of [['/?class=' + encodeURIComponent('sliding 3x3'), '#history-chart'], ['/matches/1', '#moves-chart']] as const) {
      const page = await open(path);
      await page.waitForSelector(`${chart} .u-legend`);
      const legend = await legendColours(page, chart);
      const key = JSON.parse((await page.textContent('#colours'))!) as Record<string, string>;
      await page.close();
      const bots = Object.keys(key);
      expect(bots.length, path).toBeGreaterThanOrEqual(2);
      expect(new Set(bots.map((b) => legend[b])).size, path).toBe(bots.length);
      for (const bot of bots) expect(legend[bot], `${path} ${bot}`).toBe(hexToRgb(key[bot]));
    }
  });

  it('match page - renders the per-scramble table and non-empty plots', async () => {
    const page = await open('/matches/1');
    expect(await page.locator('#scramble-rows tr:not(.footnotes)').count()).toBe(3);
    await page.waitForSelector('#moves-chart canvas');
    await page.waitForSelector('#time-chart canvas');
    expect(await inkOn(page, '#moves-chart canvas')).toBeGreaterThan(100);
    // Scrambles and moves are counts: every tick a whole number (3 scrambles once ticked at 0.5 steps).
    const [scrambles, moves] = await axisTicks(page, 'moves-chart');
    expect(scrambles.length).toBeGreaterThan(1);
    for (const t of [...scrambles, ...moves]) expect(Number.isInteger(t), `tick ${t}`).toBe(true);
    await page.screenshot({ path: join(process.env.ARENA_SCREENSHOT_DIR ?? dir, 'match.png'), fullPage: true });
    await page.close();
  });

  it('match page - an SPRT match draws its LLR trace between the bounds, decision marked', async () => {
    const trace = (await (await fetch(server.url + '/api/matches/4/sprt')).json()) as { trace: number[]; scrambles: number; upper: number; lower: number; decision: string };
    expect(trace.decision).toBe('H1');
    expect(trace.trace).toHaveLength(trace.scrambles);
    expect(trace.trace.at(-1)).toBeGreaterThanOrEqual(trace.upper);
    expect(trace.trace.slice(0, -1).every((x) => x > trace.lower && x < trace.upper)).toBe(true);
    // The same test the report carries (match --json's summary.sprt).
    const report = (await (await fetch(server.url + '/api/matches/4')).json()) as { summary: { sprt: { llr: number; scrambles: number } } };
    expect(report.summary.sprt).toMatchObject({ llr: trace.trace.at(-1), scrambles: trace.scrambles });
    expect(await (await fetch(server.url + '/api/matches/1/sprt')).json()).toBeNull();
    const page = await open('/matches/4');
    expect(await page.textContent('#sprt-summary')).toContain('H1 accepted');
    expect(await page.textContent('#sprt-summary')).toContain('[0, 20] nElo');
    // Finished early by the SPRT: complete with what it played, not 2 × 200 planned plays.
    const bar = await page.locator('#progress').evaluate((b: HTMLProgressElement) => [b.value, b.max]);
    expect(bar[0]).toBe(bar[1]);
    expect(bar[0]).toBe(2 * trace.scrambles);
    expect(await page.textContent('#progress-text')).not.toContain('400');
    for (const t of (await axisTicks(page, 'sprt-chart'))[0]) expect(Number.isInteger(t), `tick ${t}`).toBe(true);
    await page.waitForSelector('#sprt-chart canvas');
    expect(await inkOn(page, '#sprt-chart canvas')).toBeGreaterThan(100);
    // The legend names the bounds and the decision.
    expect(await page.locator('#sprt-chart .u-legend').textContent()).toMatch(/A \(accept H0\)[\s\S]*B \(accept H1\)[\s\S]*H1 accepted/);
    await page.screenshot({ path: join(process.env.ARENA_SCREENSHOT_DIR ?? dir, 'match-sprt.png'), fullPage: true });
    await page.close();
    expect(await (await fetch(server.url + '/matches/1')).text()).not.toContain('sprt-chart');
    const bot = await open('/bots/ida-star');
    await bot.screenshot({ path: join(process.env.ARENA_SCREENSHOT_DIR ?? dir, 'bot.png'), fullPage: true });
    await bot.close();
  });

  it('matches - the filter form narrows the list as arena matches does, bad values are a 400 page', async () => {
    const page = await open('/matches');
    const ids = () => page.locator('#matches tbody tr td:first-child').allTextContents();
    expect((await ids()).map(Number)).toEqual([4, 3, 2, 1]);
    await page.screenshot({ path: join(process.env.ARENA_SCREENSHOT_DIR ?? dir, 'matches.png'), fullPage: true });
    await page.fill('input[name=bot]', 'hanoi-recursive');
    await Promise.all([page.waitForURL(/bot=hanoi-recursive/), page.click('form.filters button')]);
    expect(await ids()).toEqual(['2']);
    await page.fill('input[name=bot]', '');
    await page.fill('input[name=puzzle]', 'sliding 3x3');
    await Promise.all([page.waitForURL(/puzzle=sliding/), page.click('form.filters button')]);
    expect((await ids()).map(Number)).toEqual([4, 3, 1]);
    // A bot's name alone matches its flag variants, as in arena matches.
    await page.fill('input[name=puzzle]', '');
    await page.fill('input[name=bot]', 'ida-star');
    await page.selectOption('select[name=status]', 'finished');
    await Promise.all([page.waitForURL(/status=finished/), page.click('form.filters button')]);
    expect(await ids()).toEqual(['4']);
    await page.close();
    // The JSON twin holds the same list as arena matches --json with the same filters.
    const api = (await (await fetch(server.url + '/api/matches?bot=ida-star&status=finished')).json()) as { id: number }[];
    const cli = JSON.parse(await arena(['matches', '--bot', 'ida-star', '--status', 'finished', '--json', '--db', db])) as { id: number }[];
    expect(api.map((m) => m.id)).toEqual(cli.map((m) => m.id));
    for (const q of ['status=done', 'limit=0', 'limit=1001', 'limit=-1', 'bot=' + 'x'.repeat(201)]) {
      const res = await fetch(server.url + '/matches?' + q);
      expect(res.status, q).toBe(400);
      const text = await res.text();
      expect(text).not.toMatch(/at \S+\.ts|Error:/);
      expect((await fetch(server.url + '/api/matches?' + q)).status, q).toBe(400);
    }
  });

  it('replay - steps forward and back, and the board shows the puzzle core\'s state at move k', async () => {
    const rows = await ctx.store.listResults(2);
    const row = rows.find((r) => r.bot === 'hanoi-recursive' && r.scrambleIndex === 0)!;
    const [scramble] = await ctx.store.listScrambles(2);
    const { frames } = allFrames(scramble.state, row.moves);
    const page = await open('/replay/2/1/hanoi-recursive');
    const stateAt = async (k: number) => {
      await page.waitForFunction((want) => document.body.dataset.at === String(want), k);
      return JSON.parse((await page.locator('.board .state').first().textContent())!);
    };
    expect(await stateAt(0)).toEqual(frames[0].state);
    for (let k = 1; k <= 3; k++) {
      await page.click('#fwd');
      expect(await stateAt(k)).toEqual(frames[k].state);
    }
    await page.click('#back');
    expect(await stateAt(2)).toEqual(frames[2].state);
    const last = frames.length - 1;
    await page.click('#end');
    expect(await stateAt(last)).toEqual(frames[last].state);
    await page.screenshot({ path: join(process.env.ARENA_SCREENSHOT_DIR ?? dir, 'replay.png'), fullPage: true });
    await page.close();
  });

  it('replay - two bots side by side step together', async () => {
    const page = await open('/replay/1/2/reference-bfs?vs=dijkstra');
    expect(await page.locator('.board').count()).toBe(2);
    await page.click('#fwd');
    await page.waitForFunction(() => document.body.dataset.at === '1');
    const indexes = await page.locator('.board .index').allTextContents();
    expect(indexes).toEqual(['1', '1']);
    await page.close();
  });

  it('safety - hostile names, notes and errors are shown as text and never run', async () => {
    for (const path of ['/bots', '/bots/' + encodeURIComponent(XSS_NAME), '/matches', '/matches/3', '/?class=' + encodeURIComponent('sliding 3x3')]) {
      const page = await open(path);
      await page.waitForLoadState('load');
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      await page.close();
    }
    const page = await open('/matches/3');
    expect(await page.textContent('body')).toContain('<script>alert(2)</script>');
    await page.close();
    expect(alerts).toEqual([]);
  });

  it('errors - unknown ids are 404 pages, bad query values 400, with the CSP header', async () => {
    const page = await browser.newPage();
    const missing = await page.goto(server.url + '/matches/999');
    expect(missing?.status()).toBe(404);
    expect(await page.textContent('body')).toContain('no match with id 999');
    const bad = await page.goto(server.url + '/matches?limit=lots');
    expect(bad?.status()).toBe(400);
    expect(bad?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.close();
  });

  it('live - a running match page gains rows while another process plays it', async () => {
    const run = spawnArena(['match', 'ida-star', 'constructive', '--puzzle', 'sliding', '--size', '4', '--count', '30', '--seed', '11', '--db', db], {});
    try {
      let id = 0;
      expect(
        await waitFor(async () => {
          const list = (await (await fetch(server.url + '/api/matches?status=running')).json()) as { id: number }[];
          id = list[0]?.id ?? 0;
          return id > 0;
        }, 60_000),
      ).toBe(true);
      const page = await open(`/matches/${id}`);
      const rowsNow = () => page.locator('#scramble-rows tr:not(.footnotes)').count();
      const before = await rowsNow();
      await page.waitForFunction((n) => document.querySelectorAll('#scramble-rows tr:not(.footnotes)').length > n, before, { timeout: 60_000 });
      expect(await rowsNow()).toBeGreaterThan(before);
      await page.close();
    } finally {
      run.child.kill('SIGINT');
      await run.done;
    }
  });
});
