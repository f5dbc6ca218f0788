/**
 * One door, end to end with real parts: the same CPU-spinning bot that ignores `cancel`, started by a local
 * match on a SQLite file and by `arena worker` for a distributed match on a real PostgreSQL, runs under the
 * same kernel limits (its CPU-time backstop and memory limit, read by the bot from /proc/self/limits), the
 * ones the launch plan derives from the match's settings, and is stopped alike when it spins.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchPlanOf } from '../../src/app/launch/launch-plan.ts';
import { playLimitsOf } from '../../src/referee/job-source.ts';
import { parseMatchConfig } from '../../src/referee/match-config.ts';
import { openPgStore } from '../../src/store/pg/pg-store.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../../src/store/types.ts';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';
import { ROOT, arenaRuns } from './helpers.ts';

const MATCH = ['spinner', '--puzzle', 'sliding', '--size', '2', '--count', '3', '--seed', '9', '--time-limit', '1s', '--memory-limit', '512m', '--no-warm-up', '--json'];

/** Registers the fixture bot `spinner` (limits-spinner.ts). */
async function addSpinner(store: Store): Promise<void> {
  const loader = pathToFileURL(tsxLoaderPath(ROOT)!).href;
  await store.addBot({ name: 'spinner', kind: 'command', cmd: `${process.execPath} --import ${loader} ${join(ROOT, 'test/fixtures/bots/limits-spinner.ts')}` });
}

/** Each result of match 1 on `store`, in scramble order: its verdict and note. */
async function played(store: Store): Promise<Array<{ verdict: string; note: string | undefined }>> {
  const scrambles = await store.listScrambles(1);
  const order = new Map(scrambles.map((s) => [s.id, s.index]));
  const rows = (await store.listResults(1)).sort((a, b) => order.get(a.scrambleId)! - order.get(b.scrambleId)!);
  return rows.map((r) => ({ verdict: r.verdict, note: r.note }));
}

describe.skipIf(skipPgTests())('launch plan - one door for a local match and a worker', () => {
  let server: PgServer;
  const { arena, tempDir } = arenaRuns();

  beforeAll(async () => {
    server = await startPgServer();
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('launch plan - a local match and a worker start the same spinning bot under the same CPU backstop and memory limit, and stop it alike', { timeout: 300_000 }, async () => {
    const dir = tempDir('arena-door-');
    const file = join(dir, 'local.db');
    const local = openSqliteStore(file);
    await addSpinner(local);
    await local.close();
    const l = await arena(['match', ...MATCH, '--db', file]).done;
    expect(l.code, l.stderr).toBe(0);

    const url = await server.createDatabase('door');
    const pg = await openPgStore(url);
    await addSpinner(pg);
    await pg.close();
    const match = arena(['match', ...MATCH, '--batch', '3', '--db', url, '--distributed']);
    arena(['worker', '--db', url, '--name', 'door1', '--heartbeat', '1s', '--dead-after', '6s']);
    const d = await match.done;
    expect(d.code, d.stderr).toBe(0);

    const localStore = openSqliteStore(file);
    const remoteStore = await openPgStore(url);
    try {
      const stored = await localStore.getMatch(1);
      const config = parseMatchConfig(stored!.config);
      if (!config.ok) throw new Error(config.reason);
      // What the plan derives from the stored settings: RLIMIT_CPU soft and hard (5 s later), RLIMIT_DATA in KiB.
      const plan = launchPlanOf(playLimitsOf(config.value));
      const data = Math.floor(plan.limits.memoryBytes / 1024) * 1024;
      const note = `cpu ${plan.limits.cpuSeconds}/${plan.limits.cpuSeconds + 5} data ${data}/${data}`;
      expect(plan.limits.memoryBytes).toBe(512 * 2 ** 20);

      const here = await played(localStore);
      const there = await played(remoteStore);
      // The first solve of each process reports its limits; the second spins, ignoring cancel, and is a
      // timeout (the process is killed, so the third starts a fresh one, which reports the same limits).
      const expected = [
        { verdict: 'solved', note },
        { verdict: 'timeout', note: undefined },
        { verdict: 'solved', note },
      ];
      expect(here).toEqual(expected);
      expect(there).toEqual(expected);
    } finally {
      await localStore.close();
      await remoteStore.close();
    }
  });
});
