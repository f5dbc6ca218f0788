/**
 * The body of the exact oracle's worker thread (see ../exact-oracle.ts): loads the 4×4 pattern databases
 * once, then answers one request at a time. The search is synchronous, so the budget is checked between
 * slices against this thread's own clock; the main thread stays free for the match.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { EXACT_MAX_CELLS, exactSolve } from './exact.ts';
import { loadPdbSet, PARTITION_4X4 } from './pdb-set.ts';
import type { OracleReply, OracleRequest, OracleWorkerData } from './oracle-messages.ts';

const data = workerData as OracleWorkerData;
const tables = loadPdbSet(4, 4, PARTITION_4X4, data.cacheDir);
const port = parentPort!;

function answer(req: OracleRequest): OracleReply {
  const t0 = performance.now();
  const { rows, cols, tiles } = req;
  if (rows * cols > EXACT_MAX_CELLS) return { id: req.id, status: 'bound', note: `no exact search above ${EXACT_MAX_CELLS} cells`, ms: 0 };
  if (rows === 4 && cols === 4 && !tables) {
    // Without the tables a random 15-puzzle takes IDA* minutes: keep the bound and say how to get them.
    return { id: req.id, status: 'bound', note: `no 4x4 pattern databases in ${data.cacheDir} (npm install builds them)`, ms: 0 };
  }
  const deadline = t0 + req.budgetMs;
  const out = exactSolve(rows, cols, tiles, tables, () => performance.now() >= deadline, data.sliceNodes);
  const ms = performance.now() - t0;
  if (out.status === 'exact') return { id: req.id, status: 'exact', optimal: out.moves.length, moves: out.moves, nodes: out.nodes, ms };
  return {
    id: req.id,
    status: 'bound',
    note: `exact search (${out.heuristic}) stopped at its budget of ${Math.round(req.budgetMs / 1000)} s`,
    lowerBound: out.boundReached,
    nodes: out.nodes,
    ms,
  };
}

port.on('message', (req: OracleRequest) => port.postMessage(answer(req)));
