/**
 * The upload pages in a real browser: Chromium signs in on a real web server (a real SQLite file), packs a
 * chosen *folder* in the page into a .tar.gz that the arena's own intake unpacks into the same files,
 * uploads an archive file too, and lands on each submission's status page. A bot name and a build log
 * holding `<script>` and an `onerror` image render as text and run nothing, on the status page and the
 * participant's page. The submission service behind the pages is the in-memory stand-in (the real one is
 * wired at merge, and its own end-to-end test drives these pages with it).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContext, type OpenContext } from '../../src/app/context.ts';
import { addParticipant } from '../../src/app/participants/participants.ts';
import { readBotFolder } from '../../src/intake/bot-folder.ts';
import { unpackArchive } from '../../src/intake/unpack.ts';
import { startWebServer, type WebServer } from '../../src/web/server.ts';
import { fakeSubmissions } from '../helpers/fake-submissions.ts';
import { arenaRuns } from './helpers.ts';

const CHROMIUM = process.env.ARENA_CHROMIUM ?? '/usr/bin/chromium';
// Under CI the browser must be there; elsewhere a missing browser skips with a reason.
const haveBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';
const HOSTILE_BOT = 'alice/<script>window.__xss = 1</script>';
const HOSTILE_LOG = 'cc: error\n<script>window.__xss = 2</script><img src=x onerror="window.__xss = 3">\n';

describe.skipIf(!haveBrowser)('submission pages - in Chromium', () => {
  const { tempDir } = arenaRuns();
  let dir: string;
  let ctx: OpenContext;
  let web: WebServer;
  let browser: Browser;
  let token: string;
  const fake = fakeSubmissions({ botOf: () => HOSTILE_BOT });

  beforeAll(async () => {
    dir = tempDir('arena-submit-browser-');
    const opened = await openContext({ db: join(dir, 'arena.db') });
    if (!opened.ok) throw new Error(opened.reason);
    ctx = opened.value;
    const added = await addParticipant(ctx, { name: 'alice', admin: false });
    if (!added.ok) throw new Error(added.reason);
    token = added.value.token;
    web = await startWebServer(ctx, { host: '127.0.0.1', port: 0, submissions: fake });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await ctx?.close();
  });

  it('submit - a folder is packed in the page into an archive the intake unpacks to the same files; the status page shows <script> as text', async () => {
    const bot = join(dir, 'astar');
    mkdirSync(join(bot, 'src'), { recursive: true });
    writeFileSync(join(bot, 'arena-bot.json'), JSON.stringify({ name: 'astar', run: 'python3 src/bot.py', transport: 'stdio' }));
    const code = 'import sys\n' + 'x = 1\n'.repeat(500);
    writeFileSync(join(bot, 'src', 'bot.py'), code);
    const page = await browser.newPage();
    await page.goto(`${web.url}/sign-in`);
    await page.fill('input[name=token]', token);
    await Promise.all([page.waitForURL(`${web.url}/`), page.click('#sign-in button')]);

    await page.goto(`${web.url}/submit`);
    expect(await page.isVisible('#folder')).toBe(true);
    await page.setInputFiles('#folder', bot);
    await page.waitForFunction(() => document.getElementById('folder-status')!.textContent!.startsWith('packed'));
    await Promise.all([page.waitForURL(/\/submissions\/1$/), page.click('#submit-form button')]);

    // What the server received is a .tar.gz its intake takes: the same files, byte for byte.
    const received = join(dir, 'received.tar.gz');
    writeFileSync(received, fake.archives[0]!.bytes);
    const unpacked = await unpackArchive(received, join(dir, 'unpacked'));
    expect(unpacked.ok, unpacked.ok ? '' : unpacked.reason).toBe(true);
    const found = readBotFolder(join(dir, 'unpacked'));
    expect(found.ok && found.value.manifest.name).toBe('astar');
    expect(found.ok && readFileSync(join(found.value.folder, 'src', 'bot.py'), 'utf8')).toBe(code);

    fake.logs.set(1, HOSTILE_LOG);
    await page.reload();
    expect(await page.textContent('#submission-status')).toBe('received');
    expect(await page.textContent('h1')).toContain(HOSTILE_BOT);
    expect(await page.textContent('#build-log')).toBe(HOSTILE_LOG);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await page.close();
  }, 120_000);

  it('submit - an archive file uploads too; the participant page lists it with its name as text; a missing file is a problem on the form', async () => {
    const page = await browser.newPage();
    await page.goto(`${web.url}/sign-in`);
    await page.fill('input[name=token]', token);
    await Promise.all([page.waitForURL(`${web.url}/`), page.click('#sign-in button')]);
    await page.goto(`${web.url}/submit`);
    await Promise.all([page.waitForURL(/\/submit$/), page.click('#submit-form button')]);
    expect(await page.textContent('#submit-problem')).toBe('choose an archive (or a folder) to submit');

    const file = join(dir, 'bot.zip');
    writeFileSync(file, 'PK\u0003\u0004 the stand-in takes any bytes');
    await page.setInputFiles('#archive', file);
    await Promise.all([page.waitForURL(/\/submissions\/2$/), page.click('#submit-form button')]);
    expect(fake.archives[1]!.bytes.toString('latin1')).toBe('PK\u0003\u0004 the stand-in takes any bytes');

    await page.goto(`${web.url}/participants/alice`);
    const rows = await page.$$eval('#participant-submissions tbody tr', (trs) => trs.map((tr) => tr.children[1]!.textContent));
    expect(rows).toEqual([HOSTILE_BOT, HOSTILE_BOT]);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await page.close();
  }, 120_000);
});
