/**
 * Sign-in in a real browser: Chromium fills in the form of a private `arena serve` and then sees the
 * leaderboard with its name in the header; a page of another origin (another port of the same host, so the
 * same *site*: a SameSite=Lax cookie would travel) that posts a form to the arena is refused by the Origin
 * check, and the signed-in session is not ended by it.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnArena, waitFor } from './helpers.ts';

const CHROMIUM = process.env.ARENA_CHROMIUM ?? '/usr/bin/chromium';
// Under CI the browser must be there; elsewhere a missing browser skips with a reason.
const haveBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';

describe.skipIf(!haveBrowser)('participants - sign-in in Chromium', () => {
  let dir: string;
  let url: string;
  let token: string;
  let serve: ReturnType<typeof spawnArena>;
  let evil: Server;
  let evilUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-signin-'));
    const db = join(dir, 'arena.db');
    const m = await spawnArena(['match', 'reference-bfs', 'dijkstra', '--puzzle', 'sliding', '--size', '3', '--count', '2', '--seed', '7', '--db', db, '--quiet'], {}).done;
    expect(m.code, m.stderr).toBe(0);
    const added = await spawnArena(['user', 'add', 'carol', '--json', '--db', db], {}).done;
    expect(added.code, added.stderr).toBe(0);
    token = JSON.parse(added.stdout).token;
    serve = spawnArena(['serve', '--private', '--port', '0', '--db', db], {});
    let out = '';
    serve.child.stdout!.on('data', (d) => (out += d));
    expect(await waitFor(() => /at (http:\/\/\S+)/.test(out), 60_000), out).toBe(true);
    url = /at (http:\/\/\S+)/.exec(out)![1]!;
    // The attacker's page: a form to the arena's sign-out, submitted as soon as the page loads.
    evil = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(`<form id="f" method="post" action="${url}/sign-out"></form><script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
    evilUrl = `http://127.0.0.1:${(evil.address() as { port: number }).port}/`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (evil ? evil.close(() => r()) : r()));
    if (serve && serve.child.exitCode === null) serve.child.kill('SIGTERM');
    await serve?.done;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('sign-in - the form signs in; the header names the participant; another origin’s form post is refused', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${url}/`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(await page.content()).not.toContain('dijkstra');
    await page.fill('input[name=token]', token);
    await Promise.all([page.waitForURL(`${url}/`), page.click('#sign-in button')]);
    expect(await page.textContent('#who')).toBe('carol');
    expect(await page.content()).toContain('dijkstra');
    const [cookie] = await context.cookies(url);
    expect(cookie).toMatchObject({ name: 'arena_session', httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
    // JavaScript on the arena's own pages cannot read the session cookie either.
    expect(await page.evaluate(() => document.cookie)).not.toContain('arena_session');

    const attack = await context.newPage();
    const refused = attack.waitForResponse((r) => r.url() === `${url}/sign-out`);
    await attack.goto(evilUrl);
    expect((await refused).status()).toBe(403);
    await page.reload();
    expect(await page.textContent('#who')).toBe('carol');

    await Promise.all([page.waitForURL(`${url}/sign-in`), page.click('header form.who button')]);
    await page.goto(`${url}/`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await context.close();
  }, 120_000);
});
