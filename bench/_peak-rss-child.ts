/**
 * One referee in its own process, for bench/_peak-rss.ts: plays one scramble against the `long-answer`
 * fixture bot (real WebSocket, spawned bot, SQLite file), then prints one JSON line with the verdict, the
 * move count, the referee's wall time, its resident memory before the match and its peak (getrusage
 * maxrss: the kernel's high-water mark of this process, so nothing between two samples is missed).
 * argv[2] is the case as JSON: { state, pad, repeat, tail }.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PuzzleState, WireMoves } from '../src/core/types.ts';
import { runNewMatch } from '../src/referee/run-match.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { tsxLoaderPath } from '../src/transport/process/builtin-bots.ts';
import { createProcessLauncher } from '../src/transport/process/process-launcher.ts';
import { systemClock } from '../src/transport/system-clock.ts';
import { startArenaServer } from '../src/transport/ws-server.ts';

const ROOT = resolve(import.meta.dirname, '..');
const spec = JSON.parse(process.argv[2]!) as { state: PuzzleState; pad: WireMoves; repeat: number; tail: WireMoves; maxMoves: number };

const dir = mkdtempSync(join(tmpdir(), 'arena-bench-rss-'));
const store = openSqliteStore(join(dir, 'bench.db'));
const server = await startArenaServer({ authenticate: () => undefined });
try {
  const baseline = process.memoryUsage().rss;
  const run = await runNewMatch(
    { bots: ['long-answer'], count: 1, seed: 'bench-rss', timeLimitMs: 600_000, maxMoves: spec.maxMoves, concurrency: 1 },
    [spec.state],
    {
      store,
      clock: systemClock,
      makeLauncher: (name) =>
        createProcessLauncher({
          name,
          command: process.execPath,
          args: ['--import', pathToFileURL(tsxLoaderPath(ROOT)!).href, join(ROOT, 'test/fixtures/bots/long-answer.ts')],
          env: { LONG_PAD: JSON.stringify(spec.pad), LONG_PAD_REPEAT: String(spec.repeat), LONG_TAIL: JSON.stringify(spec.tail) },
          server,
          startTimeoutMs: 60_000,
        }),
    },
  );
  // Summaries: reading the moves back is a reader's cost, not the referee's.
  const [r] = await store.listSummaries(run.match.id);
  process.stdout.write(
    JSON.stringify({ verdict: r.verdict, error: r.error, moves: r.moveCount, wallMs: r.wallMs, baselineBytes: baseline, peakBytes: process.resourceUsage().maxRSS * 1024 }) + '\n',
  );
} finally {
  await server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
