/**
 * The hostile suite, admission side: who may connect to a running match. The real CLI with a real SQLite
 * file and remote bots that dial in over a real WebSocket: outsiders (even registered bots that are not
 * playing) get 401 and hold nothing open, and a remote bot whose hello is hostile gets a verdict while the
 * match carries on.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createRng } from '../../src/core/rng.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { SUBPROTOCOL } from '../../src/protocol/messages.ts';
import { puzzles } from '../../src/puzzles/index.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { runNewMatch } from '../../src/referee/run-match.ts';
import { serveBot } from '../../src/sdk/serve.ts';
import { connectWebSocket } from '../../src/sdk/ws-client.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { createRemoteLauncher } from '../../src/transport/remote-launcher.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { hashToken, newToken } from '../../src/transport/tokens.ts';
import { startArenaServer } from '../../src/transport/ws-server.ts';
import { solveSmallSliding } from '../fixtures/bots/small-sliding.ts';
import { fixtureLauncher, spawnArena, waitFor } from './helpers.ts';

/** A remote bot played from the test process through the SDK: solves small sliding boards. */
async function remoteBot(url: string, token: string, name: string): Promise<void> {
  const channel = await connectWebSocket(url, token);
  await serveBot(
    {
      name,
      version: '1',
      capabilities: [{ kind: 'sliding', maxSize: 3 }],
      solve: (p) => (p.kind === 'sliding' ? { moves: solveSmallSliding(p.rows, p.cols, p.tiles) ?? '' } : { unsupported: 'sliding only' }),
    },
    channel,
    () => undefined,
  );
}

/** Dials `url` with `token`; resolves with the HTTP status of a refusal, or 101 once upgraded (then closes). */
function dialStatus(url: string, token: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, SUBPROTOCOL, { headers: { Authorization: `Bearer ${token}` } });
    ws.on('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('upgrade', () => resolve(101));
    ws.on('open', () => ws.terminate());
    ws.on('error', () => resolve(-1));
  });
}

/** Reads `ws://…` from what the CLI said about waiting for its remote bots. */
function urlIn(text: string): string | undefined {
  return /dial (ws:\/\/\S+) with its token/.exec(text)?.[1];
}

describe('hostile admission - the real CLI', () => {
  it('a registered remote bot that is not playing gets 401, thirty times over; the playing one gets in and the match finishes', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'arena-admission-')), 'arena.db');
    const tokens: Record<string, string> = {};
    for (const name of ['player', 'outsider']) {
      const r = await spawnArena(['bot', 'add', name, '--remote', '--db', db], {}).done;
      expect(r.code, r.stderr).toBe(0);
      tokens[name] = /^([0-9a-f]{64})$/m.exec(r.stdout)![1]!;
    }
    const arena = spawnArena(['match', 'player', '--puzzle', 'sliding', '--size', '2', '--count', '3', '--seed', '7', '--json', '--db', db], {});
    let said = '';
    arena.child.stdout!.on('data', (d) => (said += d));
    arena.child.stderr!.on('data', (d) => (said += d));
    expect(await waitFor(() => urlIn(said) !== undefined, 60_000), said).toBe(true);
    const url = urlIn(said)!;

    const statuses = await Promise.all(Array.from({ length: 30 }, () => dialStatus(url, tokens.outsider!)));
    expect(statuses).toEqual(Array(30).fill(401));
    expect(await dialStatus(url, 'not-a-token')).toBe(401);

    await remoteBot(url, tokens.player!, 'player');
    const done = await arena.done;
    expect(done.code, done.stderr).toBe(0);
    const report = JSON.parse(done.stdout);
    expect(report.results.map((r: { verdict: string }) => r.verdict)).toEqual(['solved', 'solved', 'solved']);
  }, 180_000);
});

describe('hostile admission - a remote bot dialing in mid-match', () => {
  it('a hello nested 100,000 deep is a protocol verdict for that scramble; the bot dials again and plays, the referee never stops', async () => {
    const token = newToken();
    const server = await startArenaServer({ authenticate: (t) => (hashToken(t) === hashToken(token) ? 'remote' : undefined) });
    const file = join(mkdtempSync(join(tmpdir(), 'arena-remote-')), 'results.db');
    const store = openSqliteStore(file);
    try {
      const rng = createRng('remote-deep');
      const states: PuzzleState[] = [0, 1].map(() => puzzles.sliding.scramble({ kind: 'sliding', rows: 2, cols: 2 }, rng));
      const config: MatchConfig = { bots: ['instant', 'remote'], count: 2, seed: 'remote-deep', timeLimitMs: 20_000, maxMoves: 1000, concurrency: 1 };
      let good: Promise<void> | undefined;
      const run = await runNewMatch(config, states, {
        store,
        clock: systemClock,
        makeLauncher: (b) => (b === 'remote' ? createRemoteLauncher('remote', server, 60_000) : fixtureLauncher(b, server)),
        onResult: (e) => {
          // Scramble 0 plays instant, then remote: the referee now waits for the remote bot to dial in.
          if (e.bot === 'instant' && e.scrambleIndex === 0) {
            const ws = new WebSocket(server.url, SUBPROTOCOL, { headers: { Authorization: `Bearer ${token}` } });
            ws.on('open', () => ws.send(`{"type":"hello","protocol":1,"name":${'['.repeat(100_000)}${']'.repeat(100_000)}}`));
            ws.on('error', () => undefined);
          }
          if (e.bot === 'remote' && e.scrambleIndex === 0) good = remoteBot(server.url, token, 'remote');
        },
      });
      expect(run.status).toBe('finished');
      const rows = await store.listResults(run.match.id);
      const verdict = (bot: string, i: number) => rows.find((r) => r.bot === bot && r.scrambleIndex === i);
      expect(verdict('remote', 0)).toMatchObject({ verdict: 'protocol' });
      expect(verdict('remote', 0)!.error).toMatch(/bad hello: out of bounds: nesting deeper than 8 levels/);
      expect(rows.map((r) => `${r.bot}/${r.scrambleIndex}/${r.verdict}`).sort()).toEqual(['instant/0/solved', 'instant/1/solved', 'remote/0/protocol', 'remote/1/solved']);
      await good;
    } finally {
      await store.close();
      await server.close();
    }
  }, 120_000);
});

describe('remote bot - one connection shared by concurrent workers', () => {
  it('with --concurrency 3 every scramble of the remote bot is played over its one connection, one solve at a time; none is a crash', async () => {
    const token = newToken();
    const server = await startArenaServer({ authenticate: (t) => (hashToken(t) === hashToken(token) ? 'remote' : undefined) });
    const file = join(mkdtempSync(join(tmpdir(), 'arena-remote-')), 'results.db');
    const store = openSqliteStore(file);
    try {
      const rng = createRng('remote-concurrency');
      const states: PuzzleState[] = Array.from({ length: 6 }, () => puzzles.sliding.scramble({ kind: 'sliding', rows: 2, cols: 2 }, rng));
      const config: MatchConfig = { bots: ['instant', 'remote'], count: 6, seed: 'remote-concurrency', timeLimitMs: 20_000, maxMoves: 1000, concurrency: 3 };
      // The bot counts its connections and the solves it holds at once (each answer waits a little, so
      // overlapping requests would show).
      let connections = 0;
      let inFlight = 0;
      let mostInFlight = 0;
      const bot = (async () => {
        const channel = await connectWebSocket(server.url, token);
        connections++;
        await serveBot(
          {
            name: 'remote',
            version: '1',
            capabilities: [{ kind: 'sliding', maxSize: 3 }],
            async solve(p) {
              mostInFlight = Math.max(mostInFlight, ++inFlight);
              await new Promise((r) => setTimeout(r, 50));
              inFlight--;
              return p.kind === 'sliding' ? { moves: solveSmallSliding(p.rows, p.cols, p.tiles) ?? '' } : { unsupported: 'sliding only' };
            },
          },
          channel,
          () => undefined,
        );
      })();
      // A short start timeout: a worker that waited for a second connection of its own would fail fast.
      const run = await runNewMatch(config, states, {
        store,
        clock: systemClock,
        makeLauncher: (b) => (b === 'remote' ? createRemoteLauncher('remote', server, 10_000) : fixtureLauncher(b, server)),
      });
      expect(run.status).toBe('finished');
      const rows = await store.listSummaries(run.match.id);
      expect(rows.filter((r) => r.bot === 'remote').map((r) => `${r.scrambleIndex}/${r.verdict}`).sort()).toEqual(
        [0, 1, 2, 3, 4, 5].map((i) => `${i}/solved`),
      );
      expect(rows.filter((r) => r.bot === 'instant' && r.verdict === 'solved')).toHaveLength(6);
      await bot; // the match's end says bye on the one connection
      expect(connections).toBe(1);
      expect(mostInFlight).toBe(1);
    } finally {
      await store.close();
      await server.close();
    }
  }, 120_000);
});
