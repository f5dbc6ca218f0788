/**
 * A participant's page and its JSON twin on a real web server over a real SQLite file, rendered from
 * participantBots: one row per version of each bot (number, status, check, games, rating per class); their
 * owner and admins also see each version's submission and build log and the list of submissions (a failed
 * build too), anyone else names, versions, ratings and results only: no submission id, no build log link,
 * no check note.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContext, type OpenContext } from '../../src/app/context.ts';
import { addParticipant } from '../../src/app/participants/participants.ts';
import { startWebServer, type WebServer } from '../../src/web/server.ts';
import { game, version } from '../helpers/ladder-data.ts';

const NOTE = 'check: crashed on <b>scramble 1</b>';

describe('participant page - from participantBots, by viewer', () => {
  let dir: string;
  let ctx: OpenContext;
  let server: WebServer;
  const tokens: Record<string, string> = {};
  const subs: Record<string, number> = {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-participant-page-'));
    const opened = await openContext({ db: join(dir, 'arena.db') });
    if (!opened.ok) throw new Error(opened.reason);
    ctx = opened.value;
    for (const [name, admin] of [['alice', false], ['bob', false], ['root', true]] as const) {
      const added = await addParticipant(ctx, { name, admin });
      if (!added.ok) throw new Error(added.reason);
      tokens[name] = added.value.token;
    }
    const at = new Date().toISOString();
    const s = ctx.store.submissions();
    // alice/astar: v1 placed with games against bob's bot, v2 failed its check; alice/broken never built.
    for (const [key, bot, hash] of [['v1', 'alice/astar', 'a1'], ['v2', 'alice/astar', 'a2'], ['broken', 'alice/broken', 'b1']] as const) {
      await s.putVersion(hash.repeat(32), [new TextEncoder().encode(key)], at);
      const rec = await s.add({ participant: 'alice', bot, version: hash.repeat(32), bytes: 100 }, at);
      subs[key] = rec!.id;
    }
    await s.update(subs.v1!, { status: 'checking', ladderHash: 'lh1', log: 'built v1' }, at);
    await s.update(subs.v2!, { status: 'checking', ladderHash: 'lh2', log: 'built v2' }, at);
    await s.update(subs.broken!, { status: 'failed', reason: 'the build failed (exit 1)', log: 'cc: error' }, at);
    const v1 = await version(ctx.store, 'alice/astar', 'lh1', 'placed');
    const other = await version(ctx.store, 'bob/ida', 'lb1', 'placed');
    await game(ctx.store, v1, other, 4, 3);
    const v2 = await version(ctx.store, 'alice/astar', 'lh2', 'failed');
    await ctx.store.ladder().updateVersion(v2.id, { note: NOTE });
    server = await startWebServer(ctx, { host: '127.0.0.1', port: 0 });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await ctx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const get = async (path: string, who?: string) => {
    const r = await fetch(server.url + path, who ? { headers: { Authorization: `Bearer ${tokens[who]}` } } : {});
    return { status: r.status, text: await r.text() };
  };

  it('/api/participants/:name - the owner and admins get submissions and notes; the public and others do not', async () => {
    for (const who of ['alice', 'root']) {
      const v = JSON.parse((await get('/api/participants/alice', who)).text);
      expect(v.name).toBe('alice');
      expect(v.bots.map((b: { name: string }) => b.name)).toEqual(['alice/astar', 'alice/broken']);
      const astar = v.bots[0];
      expect(astar.versions.map((x: { number: number; status: string; submission: number }) => [x.number, x.status, x.submission])).toEqual([
        [2, 'failed', subs.v2],
        [1, 'placed', subs.v1],
      ]);
      expect(astar.versions[0].note).toBe(NOTE);
      // One ladder game of 4 scrambles: the rating counts scrambles.
      expect(astar.versions[1].games).toBe(1);
      expect(astar.versions[1].ratings.map((r: { puzzleClass: string; games: number }) => [r.puzzleClass, r.games])).toEqual([['sliding 3x3', 4]]);
      expect(v.bots[1].versions).toEqual([]);
      expect(v.submissions.map((s: { id: number; status: string }) => [s.id, s.status])).toEqual([
        [subs.broken, 'failed'],
        [subs.v2, 'failed'],
        [subs.v1, 'placed'],
      ]);
    }
    for (const who of [undefined, 'bob']) {
      const r = await get('/api/participants/alice', who);
      expect(r.status).toBe(200);
      const v = JSON.parse(r.text);
      expect(v.submissions).toBeUndefined();
      expect(v.bots[0].versions.map((x: { number: number; status: string }) => [x.number, x.status])).toEqual([[2, 'failed'], [1, 'placed']]);
      expect(r.text).not.toContain('"submission"');
      expect(r.text).not.toContain('"note"');
      expect(r.text).not.toContain('crashed');
    }
    const none = await get('/api/participants/nobody');
    expect(none.status).toBe(404);
    expect(JSON.parse(none.text).error).toBe('no participant "nobody"');
  });

  it('/participants/:name - a row per version; submission and build log links for the owner only; notes as text', async () => {
    const own = (await get('/participants/alice', 'alice')).text;
    expect(own).toContain(`<a href="/submissions/${subs.v1}">${subs.v1}</a>`);
    expect(own).toContain(`href="/api/submissions/${subs.v2}/log">build log</a>`);
    expect(own).toContain('check: crashed on &lt;b&gt;scramble 1&lt;/b&gt;');
    expect(own).toContain('href="/ladder/bots/alice%2Fastar#v1"');
    expect(own).toContain('sliding 3x3: <b>');
    expect(own).toContain('id="participant-submissions"');
    expect(own).toContain('the build failed (exit 1)');
    const rows = own.match(/<tr><td class="n"><a href="\/ladder\/bots\/alice%2Fastar#v\d">/g) ?? [];
    expect(rows).toHaveLength(2);

    for (const who of [undefined, 'bob']) {
      const page = await get('/participants/alice', who);
      expect(page.status).toBe(200);
      expect(page.text).toContain('href="/ladder/bots/alice%2Fastar#v2">v2</a>');
      expect(page.text).toContain('<td>failed</td><td>failed</td>');
      expect(page.text).toContain('sliding 3x3: <b>');
      expect(page.text).not.toContain('/submissions/');
      expect(page.text).not.toContain('build log');
      expect(page.text).not.toContain('crashed');
      expect(page.text).not.toContain('participant-submissions');
    }
    expect((await get('/participants/nobody')).status).toBe(404);
  });
});
