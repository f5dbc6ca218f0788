/**
 * The upload pages in a real browser against a real `arena serve` on a real SQLite file with the real
 * submission service: Chromium signs in, packs a chosen *folder* in the page into a .tar.gz, uploads it,
 * and follows the submission's status page (it reloads itself) while the server builds the bot in the
 * sandbox and registers it (`checking`); the built folder holds the same files, byte for byte. A bot name, a
 * manifest field and a build log holding `<script>` and an `onerror` image render as text and run nothing:
 * the refused name on the form, the build log on the status page, the run command on the bots page, and
 * the participant's page. An archive file uploads too. Last, a running `arena ladder` checks and places the
 * bot: the status page reaches `placed` and the participant's page shows the version's games and rating,
 * with its submission to its owner only.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveOf } from '../helpers/submission-archives.ts';
import { arenaRuns, ROOT, spawnArena, waitFor } from './helpers.ts';
import { startLadder } from './ladder-helpers.ts';

const CHROMIUM = process.env.ARENA_CHROMIUM ?? '/usr/bin/chromium';
// Under CI the browser must be there; elsewhere a missing browser skips with a reason.
const haveBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';
const HOSTILE_NAME = '<script>window.__xss = 1</script>';
const HOSTILE_LOG = '<script>window.__xss = 2</script><img src=x onerror="window.__xss = 3">';
const HOSTILE_RUN_ARG = '<script>window.__xss=4</script>';

type Run = ReturnType<typeof spawnArena>;

describe.skipIf(!haveBrowser)('submission pages - in Chromium on a real arena serve', () => {
  const { arena, tempDir } = arenaRuns();
  let dir: string;
  let db: string;
  let url: string;
  let serve: Run;
  let serveOut = '';
  let browser: Browser;
  let token: string;
  const ladders: Run[] = [];

  beforeAll(async () => {
    dir = tempDir('arena-submit-browser-');
    db = join(dir, 'arena.db');
    const added = await arena(['user', 'add', 'alice', '--json', '--db', db]).done;
    expect(added.code, added.stderr).toBe(0);
    token = JSON.parse(added.stdout).token;
    serve = spawnArena(['serve', '--port', '0', '--db', db], {});
    serve.child.stdout!.on('data', (d) => (serveOut += d));
    serve.child.stderr!.on('data', (d) => (serveOut += d));
    expect(await waitFor(() => /at (https?:\/\/\S+)/.test(serveOut), 60_000), serveOut).toBe(true);
    url = /at (https?:\/\/\S+)/.exec(serveOut)![1]!;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const r of ladders) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
    await Promise.all(ladders.map((r) => r.done));
    if (serve && serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGTERM');
    await serve?.done;
  });

  /** A page signed in as alice. */
  async function signedIn(): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${url}/sign-in`);
    await page.fill('input[name=token]', token);
    await Promise.all([page.waitForURL(`${url}/`), page.click('#sign-in button')]);
    return page;
  }

  const xss = (page: Page) => page.evaluate(() => (window as unknown as { __xss?: number }).__xss);

  /** Reloads a submission's page until its status is one of `final`; returns the status seen last. */
  async function follow(page: Page, final: readonly string[]): Promise<string> {
    let status = '';
    await waitFor(async () => {
      await page.reload();
      status = (await page.textContent('#submission-status')) ?? '';
      return final.includes(status);
    }, 240_000);
    return status;
  }

  /** A bot folder: the A* fixture, a build that prints hostile markup, `<script>` in its run command. */
  function botFolder(name: string): { folder: string; code: string } {
    const folder = join(dir, name.replace(/\W/g, '_'));
    mkdirSync(join(folder, 'src'), { recursive: true });
    const code = readFileSync(join(ROOT, 'test/fixtures/ladder/astar-bot.mjs'), 'utf8');
    writeFileSync(join(folder, 'src', 'bot.mjs'), code);
    writeFileSync(join(folder, 'build.sh'), `echo 'building'\necho '${HOSTILE_LOG}'\n`);
    writeFileSync(
      join(folder, 'arena-bot.json'),
      JSON.stringify({ name, run: `${process.execPath} src/bot.mjs ${HOSTILE_RUN_ARG}`, build: 'sh build.sh', transport: 'stdio' }),
    );
    return { folder, code };
  }

  it('submit - a bot name holding <script> is refused on the form, as text', async () => {
    const page = await signedIn();
    await page.goto(`${url}/submit`);
    await page.setInputFiles('#archive', await archiveOf(botFolder(HOSTILE_NAME).folder));
    await Promise.all([page.waitForURL(/\/submit$/), page.click('#submit-form button')]);
    // The reason quotes the name (cut short): as text, markup and all.
    expect(await page.textContent('#submit-problem')).toMatch(/^arena-bot.json: "name": bad bot name "<script>window/);
    expect(await xss(page)).toBeUndefined();
    await page.close();
  }, 120_000);

  it('submit - a folder is packed in the page, built in the sandbox and registered (checking); its build log and run command are text', async () => {
    const { folder, code } = botFolder('astar');
    const page = await signedIn();
    await page.goto(`${url}/submit`);
    expect(await page.isVisible('#folder')).toBe(true);
    await page.setInputFiles('#folder', folder);
    await page.waitForFunction(() => document.getElementById('folder-status')!.textContent!.startsWith('packed'));
    await Promise.all([page.waitForURL(/\/submissions\/\d+$/), page.click('#submit-form button')]);
    const id = Number(/(\d+)$/.exec(page.url())![1]);
    expect(await page.textContent('h1')).toContain('alice/astar');

    const status = await follow(page, ['checking', 'failed', 'placed']);
    expect(status, `${(await page.textContent('main')) ?? ''}\n${serveOut}`).toBe('checking');
    expect(await page.textContent('#build-log')).toContain(HOSTILE_LOG);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await xss(page)).toBeUndefined();

    // What the server built is the folder the page packed, byte for byte.
    const view = await (await fetch(`${url}/api/submissions/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json();
    const built = join(`${db}.submissions`, 'built', view.version);
    expect(readFileSync(join(built, 'src', 'bot.mjs'), 'utf8')).toBe(code);
    expect(readFileSync(join(built, 'arena-bot.json'), 'utf8')).toBe(readFileSync(join(folder, 'arena-bot.json'), 'utf8'));

    // The run command (a manifest field) on the bots page, as text.
    await page.goto(`${url}/bots`);
    expect(await page.textContent('body')).toContain(HOSTILE_RUN_ARG);
    expect(await xss(page)).toBeUndefined();

    // The participant's page: the bot, and (to its owner) the submission with its status.
    await page.goto(`${url}/participants/alice`);
    expect(await page.textContent('.participant-bot h3')).toBe('alice/astar');
    const rows = await page.$$eval('#participant-submissions tbody tr', (trs) => trs.map((tr) => [tr.children[0]!.textContent, tr.children[2]!.textContent]));
    expect(rows).toContainEqual([String(id), 'checking']);
    expect(await xss(page)).toBeUndefined();
    await page.close();
  }, 300_000);

  it('submit - an archive file uploads too; a missing file is a problem on the form', async () => {
    const page = await signedIn();
    await page.goto(`${url}/submit`);
    await Promise.all([page.waitForURL(/\/submit$/), page.click('#submit-form button')]);
    expect(await page.textContent('#submit-problem')).toBe('choose an archive (or a folder) to submit');
    const { folder } = botFolder('second');
    await page.setInputFiles('#archive', await archiveOf(folder));
    await Promise.all([page.waitForURL(/\/submissions\/\d+$/), page.click('#submit-form button')]);
    expect(await page.textContent('h1')).toContain('alice/second');
    expect(await follow(page, ['checking', 'failed', 'placed'])).toBe('checking');
    await page.close();
  }, 300_000);

  it('ladder - a running arena ladder checks and places alice/astar; the status page says placed; her page shows the version with its games and rating, to the public too', async () => {
    const ladder = startLadder(db, ['--puzzle', 'sliding 3x3', '--bot', 'constructive', '--scrambles', '2', '--min-games', '2', '--max-games', '4', '--target', '400', '--budget', '0', '--seed', 'browser', '--time-limit', '5s', '--poll', '300ms'], ladders);
    const page = await signedIn();
    const mine = await (await fetch(`${url}/api/submissions`, { headers: { Authorization: `Bearer ${token}` } })).json();
    const first = mine.find((s: { bot: string }) => s.bot === 'alice/astar');
    await page.goto(`${url}/submissions/${first.id}`);
    expect(await follow(page, ['placed', 'failed']), ladder.log()).toBe('placed');
    expect(await page.textContent('#submission-facts')).toContain('alice/astar v1');

    await page.goto(`${url}/participants/alice`);
    const row = page.locator('.participant-bot', { hasText: 'alice/astar' }).locator('tbody tr').first();
    expect(await row.locator('td').nth(1).textContent()).toBe('placed');
    // The owner reads the ladder's note on the version; the public only that it passed.
    expect(await row.locator('td').nth(2).textContent()).toMatch(/^alice\/astar v1 is placed/);
    expect(Number(await row.locator('td').nth(3).textContent())).toBeGreaterThanOrEqual(2);
    expect(await row.locator('td').nth(4).textContent()).toMatch(/^sliding 3x3: -?\d+ \(/);
    expect(await row.locator(`a[href="/submissions/${first.id}"]`).count()).toBe(1);
    await page.close();

    // Signed out: the version, its games and rating, and no submission or build log.
    const anon = await browser.newPage();
    await anon.goto(`${url}/participants/alice`);
    const pub = anon.locator('.participant-bot', { hasText: 'alice/astar' }).locator('tbody tr').first();
    expect(await pub.locator('td').nth(1).textContent()).toBe('placed');
    expect(await pub.locator('td').nth(2).textContent()).toBe('passed');
    expect(await pub.locator('td').nth(4).textContent()).toMatch(/^sliding 3x3: /);
    expect(await anon.locator('a[href^="/submissions/"], a.build-log').count()).toBe(0);
    expect(await anon.locator('#participant-submissions').count()).toBe(0);
    await anon.close();
  }, 600_000);
});
