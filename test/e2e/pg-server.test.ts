import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.skipIf(skipPgTests())('pg-server helper - a throwaway PostgreSQL for tests', () => {
  let server: PgServer;
  beforeAll(async () => {
    server = await startPgServer();
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('pg-server - hands out separate empty databases on one server', async () => {
    const a = await server.createDatabase();
    const b = await server.createDatabase();
    expect(a).not.toBe(b);
    await query(a, 'CREATE TABLE t (x int); INSERT INTO t VALUES (1)');
    expect((await query(a, 'SELECT count(*)::int AS n FROM t')).rows[0].n).toBe(1);
    await expect(query(b, 'SELECT * FROM t')).rejects.toThrow(/does not exist/);
  });

  it('pg-server - keeps committed data across an immediate stop and a start on the same port', async () => {
    const url = await server.createDatabase();
    await query(url, 'CREATE TABLE t (x int); INSERT INTO t VALUES (7)');
    const port = server.port;
    await server.stop('immediate');
    await expect(query(url, 'SELECT 1')).rejects.toThrow();
    await server.start();
    expect(server.port).toBe(port);
    expect((await query(url, 'SELECT x FROM t')).rows).toEqual([{ x: 7 }]);
  });
});
