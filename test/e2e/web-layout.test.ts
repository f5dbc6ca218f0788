/**
 * The web view as a reader sees it, in Chromium at 1280 px and at 390 px (a phone), against a real
 * `arena serve` over a SQLite file written by real matches and a real ladder run: no table cut off (each
 * fits, or scrolls inside a card no wider than the screen; at 1280 px none even needs to scroll), no
 * element wider than the page, distinct bot colours within a page, chart legends without "--"
 * placeholders, times in the reader's zone instead of raw ISO strings, one style for every form control,
 * and the strict CSP kept (no inline script or style, no violation reported). Screenshots of every page at
 * both widths go to ARENA_SCREENSHOT_DIR or a temporary folder whose path the test prints.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnArena, waitFor } from './helpers.ts';
import { LADDER_FLAGS, placedWithInterval, reader, waitView } from './ladder-helpers.ts';

const CHROMIUM = process.env.ARENA_CHROMIUM ?? '/usr/bin/chromium';
// Under CI the browser must be there (.ci/run installs it); elsewhere a missing browser skips with a reason.
const haveBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';
const WIDTHS = [1280, 390] as const;
// A zone half an hour off the hour, so a time left in UTC (or shifted by whole hours) cannot pass for local.
const ZONE = 'Asia/Kolkata';
const ZONE_OFFSET_MIN = 330;

/** The pages a reader opens; the match is the three-bot one, the replay two of its bots side by side. */
const PAGES: Record<string, string> = {
  leaderboard: '/',
  matches: '/matches',
  match: '/matches/2',
  replay: '/replay/2/1/ida-star?vs=constructive',
  ladder: '/ladder',
  'ladder-bot': '/ladder/bots/ida-star',
  bot: '/bots/ida-star',
};

async function arena(args: string[]): Promise<string> {
  const r = await spawnArena(args, {}).done;
  if (r.code !== 0) throw new Error(`arena ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/**
 * What is cut off: the page scrolling sideways, any element outside the viewport that is not inside a
 * container scrolling sideways, and any such container (or a table outside one) wider than the screen.
 */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cw = document.documentElement.clientWidth;
    const out: string[] = [];
    const name = (e: Element) => e.tagName.toLowerCase() + (e.id ? `#${e.id}` : '') + [...e.classList].map((c) => `.${c}`).join('');
    const scroller = (e: Element): HTMLElement | null => {
      for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll') return p;
      }
      return null;
    };
    if (document.documentElement.scrollWidth > cw) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${cw}`);
    for (const e of document.body.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || scroller(e)) continue;
      if (r.left < -0.5 || r.right > cw + 0.5) out.push(`${name(e)} spans ${Math.round(r.left)}..${Math.round(r.right)} of ${cw}`);
    }
    for (const t of document.querySelectorAll('table')) {
      const s = scroller(t);
      if (s) {
        const r = s.getBoundingClientRect();
        if (r.left < -0.5 || r.right > cw + 0.5) out.push(`${name(t)}'s scroll card spans ${Math.round(r.left)}..${Math.round(r.right)} of ${cw}`);
      } else if (t.scrollWidth > t.parentElement!.clientWidth + 0.5) {
        out.push(`${name(t)} is cut off: ${t.scrollWidth} wide in ${t.parentElement!.clientWidth}`);
      }
    }
    return out;
  });
}

/** Tables that need sideways scrolling to be read whole. */
function scrollingTables(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('table')]
      .filter((t) => t.parentElement!.classList.contains('scroll') && t.scrollWidth > t.parentElement!.clientWidth + 0.5)
      .map((t) => `${t.id || t.className}: ${t.scrollWidth} in ${t.parentElement!.clientWidth}`),
  );
}

/** The page's colour key (#colours), its swatches by the bot named beside them, its legends' colours by label. */
function colours(page: Page): Promise<{ key: Record<string, string>; swatches: [string, string][]; legends: Record<string, string>[] }> {
  return page.evaluate(() => {
    const block = document.getElementById('colours');
    const key = block ? (JSON.parse(block.textContent!) as Record<string, string>) : {};
    const swatches = [...document.querySelectorAll('svg.swatch')].map((s) => [s.parentElement!.textContent!.trim(), s.querySelector('rect')!.getAttribute('fill')!] as [string, string]);
    const legends = [...document.querySelectorAll('.u-legend')].map((l) => {
      const out: Record<string, string> = {};
      for (const row of l.querySelectorAll('.u-series')) {
        const marker = row.querySelector('.u-marker');
        if (marker) out[row.querySelector('.u-label')!.textContent!] = getComputedStyle(marker).borderColor;
      }
      return out;
    });
    return { key, swatches, legends };
  });
}

/** A #rrggbb colour as getComputedStyle writes it. */
function rgb(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
}

/** `iso` as "YYYY-MM-DD HH:MM" in ZONE. */
function inZone(iso: string): string {
  return new Date(Date.parse(iso) + ZONE_OFFSET_MIN * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

describe.skipIf(!haveBrowser)('web layout - Chromium at 1280 px and 390 px on a real served database', () => {
  let dir: string;
  let shots: string;
  let url: string;
  let serve: ReturnType<typeof spawnArena> | undefined;
  let ladder: ReturnType<typeof spawnArena> | undefined;
  let browser: Browser;
  const contexts = new Map<number, BrowserContext>();
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-web-layout-'));
    shots = process.env.ARENA_SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'arena-web-shots-'));
    const db = join(dir, 'web.db');
    await arena(['match', 'reference-bfs', 'dijkstra', '--puzzle', 'sliding', '--size', '3', '--count', '3', '--seed', '7', '--db', db, '--quiet']);
    // Three bots, one with a long name: the head-to-head table has every column the issue saw cut off.
    await arena(['match', 'ida-star', 'ida-star --weight 3', 'constructive', '--puzzle', 'sliding', '--size', '3', '--count', '6', '--seed', '7', '--db', db, '--quiet']);
    // The ladder places its three bots, then is stopped as a user stops it (Ctrl-C).
    ladder = spawnArena(['ladder', '--db', db, ...LADDER_FLAGS], {});
    let ladderLog = '';
    ladder.child.stderr!.on('data', (d) => (ladderLog += d));
    const ctx = await reader(db);
    try {
      await waitView(ctx, (v) => ['constructive', 'ida-star', 'dijkstra'].every((b) => placedWithInterval(v, b, 1)), 400_000, () => ladderLog);
    } finally {
      await ctx.close();
    }
    ladder.child.kill('SIGINT');
    expect((await ladder.done).code, ladderLog).toBe(0);

    serve = spawnArena(['serve', '--db', db, '--port', '0'], {});
    let out = '';
    serve.child.stdout!.on('data', (d) => (out += d));
    expect(await waitFor(() => /at (http:\/\/\S+)/.test(out), 60_000), out).toBe(true);
    url = /at (http:\/\/\S+)/.exec(out)![1];

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    });
    for (const width of WIDTHS) contexts.set(width, await browser.newContext({ viewport: { width, height: 900 }, timezoneId: ZONE, locale: 'en-US' }));
    console.log(`web layout screenshots: ${shots}`);
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    for (const child of [serve?.child, ladder?.child]) if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await serve?.done;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens `path` at `width`, waits for its charts and boards, saves a full-page screenshot. */
  async function open(name: string, width: number): Promise<{ page: Page; html: string; csp: string }> {
    const page = await contexts.get(width)!.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${name} ${width}: ${m.text()}`);
    });
    page.on('pageerror', (e) => consoleErrors.push(`${name} ${width}: ${e.message}`));
    const res = await page.goto(url + PAGES[name]);
    expect(res?.status(), name).toBe(200);
    if (await page.locator('.chart').count()) await page.waitForSelector('.chart .u-legend');
    if (name === 'replay') await page.waitForFunction(() => document.body.dataset.at === '0');
    await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });
    return { page, html: await res!.text(), csp: res!.headers()['content-security-policy'] ?? '' };
  }

  for (const width of WIDTHS) {
    it(`layout ${width} px - no table cut off, no element wider than the page${width === 1280 ? ', no table needing to scroll' : ''}`, async () => {
      for (const name of Object.keys(PAGES)) {
        const { page } = await open(name, width);
        expect(await page.locator('table').count(), name).toBeGreaterThan(name === 'replay' ? -1 : 0);
        expect(await layoutProblems(page), `${name} at ${width} px`).toEqual([]);
        if (width === 1280) expect(await scrollingTables(page), `${name} at ${width} px`).toEqual([]);
        await page.close();
      }
    }, 180_000);
  }

  it('charts - follow their card when the window narrows from 1280 px to 390 px (a phone turned, a resized window)', async () => {
    const { page } = await open('match', 1280);
    const chartWidth = () => page.evaluate(() => document.querySelector('#moves-chart canvas')!.getBoundingClientRect().width);
    expect(await chartWidth()).toBeGreaterThan(400);
    await page.setViewportSize({ width: 390, height: 900 });
    await page.waitForFunction(() => document.querySelector('#moves-chart canvas')!.getBoundingClientRect().width < 390);
    expect(await layoutProblems(page)).toEqual([]);
    await page.close();
  }, 60_000);

  it('colours - within a page every bot has its own colour, the same in its swatch and its chart line', async () => {
    // The leaderboard's class has five bots (a name hash gave two of them one colour), the match three, the
    // ladder's bot page one line per version of ida-star.
    for (const [name, least] of [['leaderboard', 5], ['match', 3], ['ladder-bot', 1]] as const) {
      const { page } = await open(name, 1280);
      const { key, swatches, legends } = await colours(page);
      await page.close();
      const bots = Object.keys(key);
      expect(bots.length, name).toBeGreaterThanOrEqual(least);
      expect(new Set(Object.values(key)).size, `${name}: ${JSON.stringify(key)}`).toBe(bots.length);
      for (const [bot, fill] of swatches) expect(fill, `${name} swatch of ${bot}`).toBe(key[bot]);
      expect(new Set(swatches.map(([, fill]) => fill)).size, name).toBe(new Set(swatches.map(([bot]) => bot)).size);
      expect(legends.length, name).toBeGreaterThan(0);
      for (const legend of legends) {
        const drawn = bots.filter((b) => legend[b] !== undefined);
        expect(drawn.length, name).toBeGreaterThanOrEqual(Math.min(2, least));
        for (const bot of drawn) expect(legend[bot], `${name} legend of ${bot}`).toBe(rgb(key[bot]));
      }
    }
  }, 120_000);

  it('legends - names and colours only, no "--" placeholder values', async () => {
    for (const width of WIDTHS) {
      for (const name of ['leaderboard', 'match', 'ladder-bot']) {
        const { page } = await open(name, width);
        const legends = await page.evaluate(() =>
          [...document.querySelectorAll('.u-legend')].map((l) => ({
            values: [...l.querySelectorAll('.u-value')].map((v) => v.textContent),
            labels: [...l.querySelectorAll('.u-label')].map((v) => v.textContent),
          })),
        );
        await page.close();
        expect(legends.length, name).toBeGreaterThan(0);
        for (const l of legends) {
          expect(l.labels.length, name).toBeGreaterThan(0);
          expect(l.values.filter((v) => v !== null && /^\s*-+\s*$/.test(v)), `${name} ${width}`).toEqual([]);
        }
      }
    }
  }, 120_000);

  it('times - local to the reader, in a <time> element; no raw ISO string anywhere', async () => {
    for (const name of ['ladder', 'matches', 'bot', 'ladder-bot']) {
      const { page } = await open(name, 390);
      const times = await page.evaluate(() => [...document.querySelectorAll('time[datetime]')].map((t) => [t.getAttribute('datetime')!, t.textContent!]));
      const text = await page.evaluate(() => document.body.innerText);
      await page.close();
      expect(times.length, name).toBeGreaterThan(0);
      for (const [iso, shown] of times) expect(shown.startsWith(`${inZone(iso)} `), `${name}: ${iso} shown as "${shown}"`).toBe(true);
      expect(text, name).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
      expect(text, name).not.toMatch(/\bUTC\b/);
    }
  }, 120_000);

  it('form controls - one style: the page\'s font, one height, one border, on the filters and the replay controls', async () => {
    const styles: Record<string, string>[] = [];
    for (const name of ['matches', 'replay']) {
      const { page } = await open(name, 1280);
      styles.push(
        ...(await page.evaluate(() => {
          const body = getComputedStyle(document.body).fontFamily;
          return [...document.querySelectorAll('main input:not([type=range]), main select, main button')].map((e) => {
            const s = getComputedStyle(e);
            return { family: s.fontFamily === body ? 'the page font' : s.fontFamily, height: s.height, radius: s.borderTopLeftRadius, border: `${s.borderTopWidth} ${s.borderTopStyle}` };
          });
        })),
      );
      await page.close();
    }
    expect(styles.length).toBeGreaterThanOrEqual(10);
    expect(new Set(styles.map((s) => JSON.stringify(s)))).toEqual(new Set([JSON.stringify(styles[0])]));
    expect(styles[0].family).toBe('the page font');
  }, 120_000);

  it('csp - every page keeps the strict policy: no inline script or style, no violation in the console', async () => {
    for (const name of Object.keys(PAGES)) {
      const { page, html, csp } = await open(name, 390);
      await page.close();
      expect(csp, name).toMatch(/script-src 'self';/);
      expect(csp, name).toMatch(/style-src 'self';/);
      expect(html.match(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/g), name).toBeNull();
      expect(html, name).not.toMatch(/<style|\sstyle=/);
    }
    expect(consoleErrors).toEqual([]);
  }, 120_000);
});
