/**
 * A bot's stderr of a match, end to end: real bot processes (in the sandbox where the machine allows it,
 * always under CI) over both transports write to stderr; the referee keeps it with the match in a real
 * SQLite file, capped (1 MiB written: the first 48 KiB and the last 16 KiB kept, the rest counted); a real
 * `arena serve` shows it over real HTTP to the bot's owner and admins only (another participant 403, nobody
 * signed in 401), on the match and replay pages as escaped text (checked in Chromium), and never on the
 * public pages; `arena show --stderr` prints it to the shell holder. The bots start through the app's one
 * launcher (launch-bot.ts): a participant's bot that crashes has no stderr in its (public) crash reason, a
 * bot without an owner still has its tail there.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContext } from '../../src/app/context.ts';
import { addParticipant } from '../../src/app/participants/participants.ts';
import { utf8Bytes } from '../../src/core/capped-text.ts';
import { createRng } from '../../src/core/rng.ts';
import type { SlidingState } from '../../src/core/types.ts';
import { puzzles } from '../../src/puzzles/index.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { runNewMatch, runResumedMatch } from '../../src/referee/run-match.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';
import type { BotLauncher } from '../../src/protocol/link.ts';
import { launchBot } from '../../src/app/launch/launch-bot.ts';
import type { LaunchPlan } from '../../src/app/launch/launch-plan.ts';
import { CAN_SANDBOX, confinedIfAble, fixtureEntry } from '../helpers/sandbox.ts';
import { ROOT, spawnArena, waitFor } from './helpers.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const CHROMIUM = process.env.ARENA_CHROMIUM ?? '/usr/bin/chromium';
// Under CI the browser must be there; elsewhere a missing browser skips that test.
const haveBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';

/** The match's bots: alice's over WebSocket (1 MiB), carol's over stdio, one with no owner; two that crash. */
const BOTS: Record<string, { bytes: number; stdio: boolean; crash?: boolean; noHello?: boolean }> = {
  'alice/noisy': { bytes: MiB, stdio: false },
  'carol/quiet': { bytes: 2000, stdio: true },
  noisy: { bytes: 3000, stdio: false },
  'alice/crashy': { bytes: 0, stdio: false, crash: true },
  crashy: { bytes: 0, stdio: true, crash: true },
  'alice/broken': { bytes: 500, stdio: false, noHello: true },
};
const FIRST = '<script>alert("stderr")</script> first line of stderr';

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

/** Launchers of BOTS through the app's one launcher (launch-bot.ts), in the sandbox where the machine allows. */
function launchers(server: ArenaServer, dir: string, db: string): (name: string) => BotLauncher {
  const plan: LaunchPlan = { timeLimitMs: 60_000, startTimeoutMs: 60_000, limits: { memoryBytes: 1024 * MiB, cpuSeconds: 600, diskBytes: 64 * MiB }, unconfined: !CAN_SANDBOX, affinity: false };
  const { confine } = confinedIfAble(fixtureEntry('stderr-writer'), { guarded: [dir] });
  const site = { server, ctx: { projectRoot: ROOT, dbLocation: db }, prepared: () => confine };
  return (name) => {
    const b = BOTS[name]!;
    const args = ['--import', pathToFileURL(tsxLoaderPath(ROOT)!).href, fixtureEntry('stderr-writer'), '--bytes', String(b.bytes), '--name', name, ...(b.crash ? ['--crash'] : []), ...(b.noHello ? ['--no-hello'] : [])];
    return launchBot({ name, source: 'command', command: process.execPath, args, ...(b.stdio ? { stdio: true } : {}) }, plan, site);
  };
}

/** `n` seeded 2×2 scrambles. */
const scrambles = (n: number, seed: string) => {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => puzzles.sliding.scramble({ kind: 'sliding', rows: 2, cols: 2 }, rng)) as SlidingState[];
};

describe('bot stderr e2e - kept capped with its match, shown to its owner only', () => {
  let dir: string;
  let db: string;
  let matchId: number;
  const tokens: Record<string, string> = {};
  let serve: ReturnType<typeof spawnArena> | undefined;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-stderr-'));
    db = join(dir, 'arena.db');
    const server = await startArenaServer({ authenticate: () => undefined });
    const store = openSqliteStore(db);
    try {
      const states = scrambles(2, 'bot-stderr');
      const config: MatchConfig = { bots: Object.keys(BOTS), count: states.length, seed: 'stderr', timeLimitMs: 60_000, maxMoves: 1_000, concurrency: 1 };
      const run = await runNewMatch(config, states, { store, clock: systemClock, makeLauncher: launchers(server, dir, db) });
      expect(run.status).toBe('finished');
      matchId = run.match.id;
    } finally {
      await store.close();
      await server.close();
    }
    const opened = await openContext({ db });
    if (!opened.ok) throw new Error(opened.reason);
    try {
      for (const [name, admin] of [['alice', false], ['bob', false], ['root', true]] as const) {
        const added = await addParticipant(opened.value, { name, admin });
        if (!added.ok) throw new Error(added.reason);
        tokens[name] = added.value.token;
      }
    } finally {
      await opened.value.close();
    }
    serve = spawnArena(['serve', '--port', '0', '--db', db], {});
    let out = '';
    serve.child.stdout!.on('data', (d) => (out += d));
    expect(await waitFor(() => /at (http:\/\/\S+)/.test(out), 60_000), out).toBe(true);
    url = /at (http:\/\/\S+)/.exec(out)![1]!;
  }, 300_000);

  afterAll(async () => {
    if (serve && serve.child.exitCode === null) serve.child.kill('SIGTERM');
    await serve?.done;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('stored - 1 MiB written keeps its first 48 KiB and last 16 KiB and counts the rest; small stderr whole, both transports', async () => {
    const store = openSqliteStore(db);
    try {
      const noisy = (await store.stderrs().read(matchId, 'alice/noisy'))!;
      expect(noisy.head.startsWith(`${FIRST}\n`)).toBe(true);
      expect(noisy.tail.endsWith('.end of start\n')).toBe(true);
      expect([utf8Bytes(noisy.head), utf8Bytes(noisy.tail), noisy.cutBytes]).toEqual([48 * KiB, 16 * KiB, MiB - 64 * KiB]);
      for (const bot of ['carol/quiet', 'noisy']) {
        const t = (await store.stderrs().read(matchId, bot))!;
        expect(t.cutBytes, bot).toBe(0);
        expect(utf8Bytes(t.head), bot).toBe(BOTS[bot]!.bytes);
        expect(t.head.endsWith('end of start\n'), bot).toBe(true);
      }
      expect(await store.stderrs().bots(matchId)).toEqual(['alice/broken', 'alice/crashy', 'alice/noisy', 'carol/quiet', 'crashy', 'noisy']);
      // A bot that never said hello: what each failed start wrote is kept too.
      const broken = (await store.stderrs().read(matchId, 'alice/broken'))!;
      expect(broken.head.startsWith(`${FIRST}\n`)).toBe(true);
      expect(utf8Bytes(broken.head) % 500).toBe(0);
      // Each crash restarted the bot: both processes' stderr is kept, the last words included.
      const crashy = (await store.stderrs().read(matchId, 'alice/crashy'))!;
      expect(crashy).toEqual({ head: 'dying words of alice/crashy\n'.repeat(2), tail: '', cutBytes: 0 });
    } finally {
      await store.close();
    }
  });

  it('results - a participant\'s crashed bot has no stderr in its public reason; a bot without an owner keeps its tail there', async () => {
    const store = openSqliteStore(db);
    try {
      const rows = await store.listSummaries(matchId);
      const reasons = (bot: string) => rows.filter((r) => r.bot === bot).map((r) => [r.verdict, r.error ?? '']);
      for (const [verdict, error] of reasons('alice/crashy')) {
        expect(verdict).toBe('crash');
        expect(error).toMatch(/exited with code 3/);
        expect(error).not.toMatch(/dying words|first line|stderr/);
      }
      for (const [verdict, error] of reasons('crashy')) expect([verdict, /exited with code 3; stderr:\n[^]*dying words of crashy/.test(error)]).toEqual(['crash', true]);
      expect(reasons('alice/crashy')).toHaveLength(2);
      for (const [verdict, error] of reasons('alice/broken')) expect([verdict, /first line|end of start|stderr:/.test(error)]).toEqual(['crash', false]);
      expect(reasons('crashy')).toHaveLength(2);
    } finally {
      await store.close();
    }
    const api = await (await fetch(`${url}/api/matches/${matchId}`)).text();
    expect(api).toContain('alice/crashy');
    expect(api).not.toContain('dying words of alice');
  });

  it('API - the owner and an admin read it; another participant 403; nobody signed in 401; an unowned bot is the admins\'', async () => {
    const api = (bot: string) => `${url}/api/matches/${matchId}/stderr/${encodeURIComponent(bot)}`;
    const own = await fetch(api('alice/noisy'), bearer(tokens.alice!));
    expect(own.status).toBe(200);
    const body = (await own.json()) as { bot: string; cutBytes: number; text: string };
    expect(body.bot).toBe('alice/noisy');
    expect(body.cutBytes).toBe(MiB - 64 * KiB);
    expect(body.text).toContain(`${FIRST}\n`);
    expect(body.text).toContain(`\n[… ${MiB - 64 * KiB} bytes cut]\n`);
    // The raw '/' works as well as %2F.
    expect((await fetch(`${url}/api/matches/${matchId}/stderr/alice/noisy`, bearer(tokens.root!))).status).toBe(200);
    const other = await fetch(api('alice/noisy'), bearer(tokens.bob!));
    expect(other.status).toBe(403);
    expect(JSON.stringify(await other.json())).not.toContain('first line');
    const nobody = await fetch(api('alice/noisy'));
    expect(nobody.status).toBe(401);
    expect(JSON.stringify(await nobody.json())).not.toContain('first line');
    expect((await fetch(api('noisy'), bearer(tokens.alice!))).status).toBe(403);
    expect((await fetch(api('carol/quiet'), bearer(tokens.alice!))).status).toBe(403);
    expect((await fetch(api('noisy'), bearer(tokens.root!))).status).toBe(200);
    expect((await fetch(api('noisy'))).status).toBe(401);
    expect((await fetch(`${url}/api/matches/${matchId + 9}/stderr/noisy`, bearer(tokens.root!))).status).toBe(404);
  });

  it('pages - public match and replay pages hold none of it; the owner sees their bot\'s alone, escaped', async () => {
    const pages = [`${url}/matches/${matchId}`, `${url}/replay/${matchId}/1/${encodeURIComponent('alice/noisy')}?vs=noisy`];
    for (const page of pages) {
      const open = await fetch(page);
      expect(open.status).toBe(200);
      const html = await open.text();
      expect(html).toContain('alice/noisy');
      for (const secret of ['first line of stderr', 'end of start', 'id="stderr"', 'bytes cut']) expect(html, page).not.toContain(secret);
      const bobs = await (await fetch(page, bearer(tokens.bob!))).text();
      expect(bobs).not.toContain('first line of stderr');
      const alices = await (await fetch(page, bearer(tokens.alice!))).text();
      expect(alices).toContain('id="stderr"');
      expect(alices).toContain('&lt;script&gt;alert(&quot;stderr&quot;)&lt;/script&gt; first line of stderr');
      expect(alices).not.toContain('<script>alert(');
      expect(alices).toContain(`[… ${MiB - 64 * KiB} bytes cut]`);
      // Her bots' panels, not the unowned bot's nor carol's.
      expect(alices).toContain('data-bot="alice/noisy"');
      expect(alices).not.toContain('data-bot="noisy"');
      expect(alices).not.toContain('data-bot="carol/quiet"');
    }
    const admins = await (await fetch(pages[0]!, bearer(tokens.root!))).text();
    for (const bot of Object.keys(BOTS)) expect(admins).toContain(`data-bot="${bot}"`);
  });

  it.skipIf(!haveBrowser)('Chromium - stderr holding <script> renders as text and runs nothing', async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const context = await browser.newContext({ extraHTTPHeaders: { Authorization: `Bearer ${tokens.alice!}` } });
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      for (const at of [`${url}/matches/${matchId}`, `${url}/replay/${matchId}/1/${encodeURIComponent('alice/noisy')}`]) {
        await page.goto(at);
        const text = await page.textContent('section.stderr[data-bot="alice/noisy"] pre.stderr-text');
        expect(text, at).toContain(`${FIRST}\n`);
        expect(await page.locator('section.stderr script').count()).toBe(0);
      }
      expect(dialogs).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('arena show --stderr - the shell holder reads every bot\'s, as text or JSON', async () => {
    const one = await spawnArena(['show', String(matchId), '--stderr', 'alice/noisy', '--json', '--db', db], {}).done;
    expect(one.code, one.stderr).toBe(0);
    const [view] = JSON.parse(one.stdout) as Array<{ bot: string; cutBytes: number; head: string }>;
    expect([view!.bot, view!.cutBytes, view!.head.startsWith(FIRST)]).toEqual(['alice/noisy', MiB - 64 * KiB, true]);
    const all = await spawnArena(['show', String(matchId), '--stderr', '--db', db], {}).done;
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain(`== alice/noisy: stderr in match ${matchId} (${MiB - 64 * KiB} bytes cut between its first and last bytes) ==\n${FIRST}\n`);
    expect(all.stdout).toContain(`== carol/quiet: stderr in match ${matchId} ==\n${FIRST}\n`);
    expect(all.stdout).toContain(`== noisy: stderr in match ${matchId} ==\n`);
    expect(all.stdout).toContain('dying words of alice/crashy');
    const unknown = await spawnArena(['show', String(matchId), '--stderr', 'nobody', '--db', db], {}).done;
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe(`arena: bot nobody did not play in match ${matchId}`);
  }, 120_000);
});

describe('bot stderr e2e - a resumed match', () => {
  it('resume - the stderr of the processes of the resumed run is appended to what the interrupted run kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-stderr-resume-'));
    const db = join(dir, 'arena.db');
    const server = await startArenaServer({ authenticate: () => undefined });
    const store = openSqliteStore(db);
    try {
      const states = scrambles(3, 'bot-stderr-resume');
      const config: MatchConfig = { bots: ['carol/quiet'], count: states.length, seed: 'resume', timeLimitMs: 60_000, maxMoves: 1_000, concurrency: 1 };
      const stop = new AbortController();
      const first = await runNewMatch(config, states, { store, clock: systemClock, makeLauncher: launchers(server, dir, db), signal: stop.signal, onResult: () => stop.abort() });
      expect(first.status).toBe('interrupted');
      const once = (await store.stderrs().read(first.match.id, 'carol/quiet'))!;
      expect([utf8Bytes(once.head), once.cutBytes]).toEqual([BOTS['carol/quiet']!.bytes, 0]);
      const again = await runResumedMatch(first.match.id, { store, clock: systemClock, makeLauncher: launchers(server, dir, db) });
      expect(again.ok && again.value.status).toBe('finished');
      const twice = (await store.stderrs().read(first.match.id, 'carol/quiet'))!;
      expect([utf8Bytes(twice.head), twice.cutBytes]).toEqual([2 * BOTS['carol/quiet']!.bytes, 0]);
      expect(twice.head.split(`${FIRST}\n`)).toHaveLength(3);
      expect(twice.head.startsWith(once.head)).toBe(true);
    } finally {
      await store.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
