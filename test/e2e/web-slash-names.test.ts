/**
 * Bot names with a slash (`alice/astar`, a participant's bot) in every web route that takes a bot name, on
 * a real web server over a real SQLite file: each route answers for the name raw and %2F-encoded, and the
 * links the pages generate encode it (so a link is one path segment however the name is spelled).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContext, type OpenContext } from '../../src/app/context.ts';
import { startWebServer, type WebServer } from '../../src/web/server.ts';
import { activity, game, version } from '../helpers/ladder-data.ts';

const BOT = 'alice/astar';
const ENCODED = encodeURIComponent(BOT);

describe('web routes - bot names with a slash', () => {
  let dir: string;
  let ctx: OpenContext;
  let server: WebServer;
  let match: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-web-slash-'));
    const opened = await openContext({ db: join(dir, 'arena.db') });
    if (!opened.ok) throw new Error(opened.reason);
    ctx = opened.value;
    const mine = await version(ctx.store, BOT, 'h1', 'placed');
    const other = await version(ctx.store, 'bob/idastar', 'h1', 'placed');
    match = await game(ctx.store, mine, other, 2, 1);
    await activity(ctx.store, 'stopped', 'stopped', 'test');
    server = await startWebServer(ctx, { host: '127.0.0.1', port: 0 });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await ctx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const r = await fetch(server.url + path);
    return { status: r.status, text: await r.text() };
  };

  it('routes - /bots, /api/bots, /ladder/bots, /api/ladder/bots, /replay and /api/replay take the name raw or %2F-encoded', async () => {
    for (const name of [BOT, ENCODED]) {
      const page = await get(`/bots/${name}`);
      expect(page.status, `/bots/${name}`).toBe(200);
      expect(page.text).toContain('<h1>alice/astar');
      const api = await get(`/api/bots/${name}`);
      expect(api.status, `/api/bots/${name}`).toBe(200);
      expect(JSON.parse(api.text).bot.name).toBe(BOT);
      const ladder = await get(`/ladder/bots/${name}`);
      expect(ladder.status, `/ladder/bots/${name}`).toBe(200);
      expect(ladder.text).toContain('alice/astar v1');
      const versions = await get(`/api/ladder/bots/${name}`);
      expect(versions.status, `/api/ladder/bots/${name}`).toBe(200);
      expect(JSON.parse(versions.text).map((v: { bot: string }) => v.bot)).toEqual([BOT]);
      const replay = await get(`/replay/${match}/1/${name}?vs=${encodeURIComponent('bob/idastar')}`);
      expect(replay.status, `/replay/${match}/1/${name}`).toBe(200);
      expect(replay.text).toContain(`href="/bots/${ENCODED}"`);
      expect(replay.text).toContain(`href="/bots/${encodeURIComponent('bob/idastar')}"`);
      const seek = await get(`/api/replay/${match}/1/${name}?at=1`);
      expect(seek.status, `/api/replay/${match}/1/${name}`).toBe(200);
      expect(JSON.parse(seek.text).bot).toBe(BOT);
    }
    // A name that is not there is still a 404, slash or not.
    expect((await get('/bots/alice/nothing')).status).toBe(404);
    expect((await get('/api/ladder/bots/alice%2Fnothing')).status).toBe(404);
  }, 60_000);

  it('links - the pages encode a slash in the names they link to', async () => {
    const m = await get(`/matches/${match}`);
    expect(m.text).toContain(`href="/replay/${match}/1/${ENCODED}"`);
    expect(m.text).toContain(`href="/bots/${ENCODED}"`);
    expect(m.text).not.toContain('href="/bots/alice/astar"');
    const ladder = await get('/ladder');
    expect(ladder.text).toContain(`href="/ladder/bots/${ENCODED}"`);
    const versions = await get(`/ladder/bots/${ENCODED}`);
    expect(versions.text).toContain(`href="/bots/${ENCODED}"`);
    const matches = await get('/matches');
    expect(matches.text).toContain(`href="/bots/${ENCODED}"`);
  }, 60_000);
});
