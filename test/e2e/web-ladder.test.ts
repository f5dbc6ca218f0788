/**
 * The ladder's web pages in Chromium, on a ladder written to a real SQLite file: the ranking per class with
 * intervals (current versions only), a bot being placed with its progress, recent games linking to their
 * matches, a bot's page with every version (the old one keeps its rating) and a rating chart per version,
 * the page reloading itself while the ladder runs, JSON twins, and a hostile bot name shown as text.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContext, type OpenContext } from '../../src/app/context.ts';
import { startWebServer, type WebServer } from '../../src/web/server.ts';
import { activity, game, version } from '../helpers/ladder-data.ts';

const CHROMIUM = process.env.ARENA_CHROMIUM ?? '/usr/bin/chromium';
const haveBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';
const HOSTILE = 'evil<img src=x onerror=alert(1)>';

describe.skipIf(!haveBrowser)('web ladder - in Chromium', () => {
  let dir: string;
  let ctx: OpenContext;
  let server: WebServer;
  let browser: Browser;
  const alerts: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-web-ladder-'));
    const opened = await openContext({ db: join(dir, 'ladder.db') });
    if (!opened.ok) throw new Error(opened.reason);
    ctx = opened.value;
    const s = ctx.store;
    const strong = await version(s, 'strong', 'h1', 'placed');
    const weak = await version(s, 'weak', 'h1', 'placed');
    const old = await version(s, 'mine', 'h1', 'placed');
    await game(s, strong, weak, 20, 16);
    await game(s, old, weak, 10, 2);
    const mine = await version(s, 'mine', 'h2', 'placing');
    await game(s, mine, strong, 6, 3);
    const evil = await version(s, HOSTILE, 'h1', 'placed');
    await game(s, evil, weak, 4, 2, 'upkeep');
    await activity(s, 'running', 'placing mine v2: mine v2 vs strong v1 on sliding 3x3', 'placing mine v2 on sliding 3x3 (6 of at least 10 games)');
    server = await startWebServer(ctx, { host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await ctx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(path: string) {
    const page = await browser.newPage();
    page.on('dialog', (d) => {
      alerts.push(d.message());
      void d.dismiss();
    });
    const res = await page.goto(server.url + path);
    return { page, res };
  }

  it('ladder page - ranking with intervals, the bot being placed, recent games, reloading while the ladder runs', async () => {
    const { page, res } = await open('/ladder');
    expect(res?.status()).toBe(200);
    expect(res?.headers()['refresh']).toBe('5');
    expect(await page.textContent('#ladder-activity')).toMatch(/placing mine v2: mine v2 vs strong v1/);
    // Current versions only: mine v2, not mine v1.
    const versions = await page.locator('.ladder-ranking tbody tr td:nth-child(2)').allTextContents();
    expect([...versions].sort()).toEqual([`${HOSTILE} v1`, 'mine v2', 'strong v1', 'weak v1']);
    const ratings = (await page.locator('.ladder-ranking tbody tr td:nth-child(3)').allTextContents()).map(Number);
    expect([...ratings].sort((a, b) => b - a)).toEqual(ratings);
    expect(await page.locator('.ladder-ranking tbody tr td:nth-child(4)').first().textContent()).toMatch(/^-?\d+ … -?\d+$/);
    expect(await page.textContent('ul.placing')).toMatch(/placing mine v2: 6 of at least 10 games/);
    // The pace: all 4 games were stored within the last minutes, so all 4 count.
    expect(await page.textContent('#ladder-pace')).toMatch(/^pace: \d+\.\d games per minute \(4 games in the last \d+\.\d min\)$/);
    expect(await page.locator('#ladder-games tbody tr').count()).toBe(4);
    await page.click('#ladder-games tbody tr:last-child a');
    expect(page.url()).toMatch(/\/matches\/1$/);
    expect(await page.textContent('h1')).toMatch(/match 1/i);
    expect(alerts).toEqual([]);
    await page.close();
  });

  it('bot page - every version newest first, the old one with its rating, the current one marked', async () => {
    const { page, res } = await open('/ladder');
    expect(res?.status()).toBe(200);
    await page.click('.ladder-ranking a:text("mine v2")');
    expect(page.url()).toMatch(/\/ladder\/bots\/mine$/);
    const titles = await page.locator('section.version h2').allTextContents();
    expect(titles.map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['mine v2 current placing', 'mine v1 placed']);
    expect(await page.locator('#v1 .version-ratings tbody tr').count()).toBe(1);
    expect(await page.textContent('#v1 .version-ratings')).toMatch(/sliding 3x3/);
    // A rating line per version in the chart.
    await page.waitForSelector('#history-chart canvas');
    const labels = await page.locator('#history-chart .u-legend .u-series .u-label').allTextContents();
    expect(labels.filter((l) => l.startsWith('mine')).sort()).toEqual(['mine v1', 'mine v2']);
    await page.close();
  });

  it('pages - hostile names are text, JSON twins, a stopped ladder does not reload, unknown bots are 404', async () => {
    const { page } = await open(`/ladder/bots/${encodeURIComponent(HOSTILE)}`);
    expect(await page.textContent('h1')).toContain(HOSTILE);
    expect(await page.locator('img').count()).toBe(0);
    await page.close();
    const api = await (await fetch(`${server.url}/api/ladder`)).json();
    expect(api.classes[0].puzzleClass).toBe('sliding 3x3');
    expect(api.classes[0].placing[0].label).toBe('mine v2');
    expect(api.pace.games).toBe(4);
    expect(api.pace.perMinute).toBeCloseTo(4 / api.pace.minutes, 6);
    const versions = await (await fetch(`${server.url}/api/ladder/bots/mine`)).json();
    expect(versions.map((v: { number: number }) => v.number)).toEqual([2, 1]);
    expect((await fetch(`${server.url}/ladder/bots/nobody`)).status).toBe(404);
    expect((await fetch(`${server.url}/ladder?before=x`)).status).toBe(400);
    await activity(ctx.store, 'stopped', 'stopped', 'Ctrl-C');
    const stopped = await fetch(`${server.url}/ladder`);
    expect(stopped.headers.get('refresh')).toBeNull();
    expect(await stopped.text()).toMatch(/4 games in the \d+\.\d min before its last game/);
    expect(alerts).toEqual([]);
  });
});
