/**
 * The body of the exact oracle's worker thread (see ./oracle.ts): loads the 4×4 pattern databases once (the
 * 5×5 ones at the first 5×5 request, 255 MB), then answers one request at a time. The search is synchronous,
 * so the budget is checked between slices against this thread's own clock; the main thread stays free for
 * the match.
 *
 * Between slices (and before loading the tables) the worker also looks at the gate the main thread holds
 * shut while a bot's solve is being timed, and waits there until it opens: the oracle never competes with a
 * timed bot for a core. The wait is not charged to the request's budget nor to its reported time. Slices are
 * small enough (a fraction of a millisecond) that a solve starting meanwhile overlaps the oracle by no more.
 * A worker given cores of its own (`pin`, cores no bot runs on) posts its thread id so the main thread can
 * pin it there, then checks the kernel's record of this thread shows exactly them; only then does the main
 * thread stop shutting the gate for timed solves.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { boundBySearch, EXACT_MAX_CELLS, exactSolve } from './exact.ts';
import type { PatternTable } from './pdb-heuristic.ts';
import { loadPdbSet, PARTITION_4X4, PARTITION_4X4_78, PARTITION_5X5 } from './pdb-set.ts';
import { PIN_CONFIRMED, PIN_REFUTED, PIN_SET } from './oracle-messages.ts';
import type { OracleReply, OracleRequest, OracleThread, OracleWorkerData } from './oracle-messages.ts';

/** Nodes per slice when nothing else asks: about a tenth of a millisecond of search, the most a held oracle overlaps a solve. */
const SLICE_NODES = 2_000;
/** How long the gate must have stayed open before the search resumes, ms. */
const QUIET_MS = 2;

const data = workerData as OracleWorkerData;
const gate = new Int32Array(data.gate);
const port = parentPort!;
/** Milliseconds spent waiting at the gate so far. */
let waited = 0;

/** This thread's kernel id (Linux: /proc/thread-self links to /proc/<pid>/task/<tid>). */
function threadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** True when the kernel lets this thread run on exactly `cpuList` (its Cpus_allowed_list, the same format). */
function runsOnlyOn(cpuList: string): boolean {
  try {
    const m = /^Cpus_allowed_list:\s*(\S+)$/m.exec(readFileSync('/proc/thread-self/status', 'latin1'));
    return m?.[1] === cpuList;
  } catch {
    return false;
  }
}

function waitAtGate(): void {
  // Once the main thread says it pinned this thread, check with the kernel: the main thread stops holding
  // the gate for timed solves only when this agrees.
  if (Atomics.load(gate, 1) === PIN_SET) Atomics.store(gate, 1, runsOnlyOn(data.pin ?? '') ? PIN_CONFIRMED : PIN_REFUTED);
  if (Atomics.load(gate, 0) === 0) return;
  const t = performance.now();
  // Once the gate opens, it must stay open a moment before the search goes on: between two solves of a
  // match it is open for a fraction of a millisecond, too little to gain anything, and a slice started then
  // runs on into the next solve.
  do {
    while (Atomics.load(gate, 0) !== 0) Atomics.wait(gate, 0, 1, 1000);
  } while (Atomics.wait(gate, 0, 0, QUIET_MS) !== 'timed-out');
  waited += performance.now() - t;
}

// Work that can wait: at the lowest priority the referee's thread, when it wakes to take a bot's answer on a
// core this one shares, runs at once instead of waiting for a slice of this search (Linux nice is per thread).
const tid = threadId();
if (tid !== undefined) {
  try {
    setPriority(tid, 19);
  } catch {
    // Not allowed here: the thread keeps its priority; the gate still keeps it off timed bots' cores.
  }
}
if (data.pin && tid !== undefined) {
  port.postMessage({ tid } satisfies OracleThread);
  // The main thread answers at once (pinned or not): wait for it, so the first request already knows.
  Atomics.wait(gate, 1, 0, 2000);
}
waitAtGate();
// The 7-8 tables when prepared (bots/ida-star/prepare-78.ts), else the 6-6-3 ones: the stronger bound proves
// a 15-puzzle optimum with far fewer nodes.
const tables4 = loadPdbSet(4, 4, PARTITION_4X4_78, data.cacheDir) ?? loadPdbSet(4, 4, PARTITION_4X4, data.cacheDir);
let tables5: PatternTable[] | null | undefined;

/** The pattern databases of a shape: 4×4 (null when missing), 5×5 (read at first use), else none. */
function tablesFor(rows: number, cols: number): PatternTable[] | null {
  if (rows === 4 && cols === 4) return tables4;
  if (rows === 5 && cols === 5) {
    if (tables5 === undefined) {
      waitAtGate();
      tables5 = loadPdbSet(5, 5, data.partition5x5 ?? PARTITION_5X5, data.cacheDir);
    }
    return tables5;
  }
  return null;
}

function answer(req: OracleRequest): OracleReply {
  const t0 = performance.now();
  const w0 = waited;
  const { rows, cols, tiles } = req;
  if (rows * cols > EXACT_MAX_CELLS && !boundBySearch(rows, cols)) {
    return { id: req.id, status: 'bound', note: `no exact search above ${EXACT_MAX_CELLS} cells`, ms: 0 };
  }
  const tables = tablesFor(rows, cols);
  if (rows === 4 && cols === 4 && !tables) {
    // Without the tables a random 15-puzzle takes IDA* minutes: keep the bound and say how to get them.
    return { id: req.id, status: 'bound', note: `no 4x4 pattern databases in ${data.cacheDir} (arena prepare ida-star builds them)`, ms: 0 };
  }
  if (boundBySearch(rows, cols) && !tables) {
    return {
      id: req.id,
      status: 'bound',
      note: `Manhattan + linear conflict: no ${rows}x${cols} pattern databases in ${data.cacheDir} (arena prepare pdb-beam builds them)`,
      ms: 0,
    };
  }
  const own = (): number => performance.now() - t0 - (waited - w0);
  const expired = (): boolean => {
    waitAtGate();
    return own() >= req.budgetMs;
  };
  waitAtGate();
  const out = exactSolve(rows, cols, tiles, tables, expired, data.sliceNodes ?? SLICE_NODES, req.known);
  const ms = own();
  if (out.status === 'exact') return { id: req.id, status: 'exact', optimal: out.moves.length, moves: out.moves, nodes: out.nodes, ms };
  if (out.status === 'proved') return { id: req.id, status: 'proved', optimal: out.optimal, nodes: out.nodes, ms };
  const budget = req.budgetMs >= 1000 ? `${Math.round(req.budgetMs / 1000)} s` : `${req.budgetMs} ms`;
  const note = boundBySearch(rows, cols)
    ? `lower bound: ${out.heuristic}, raised by ${budget} of IDA* over them (the exact optimum is out of reach)`
    : `exact search (${out.heuristic}) stopped at its budget of ${budget}`;
  return {
    id: req.id,
    status: 'bound',
    note,
    lowerBound: out.boundReached,
    nodes: out.nodes,
    ms,
  };
}

port.on('message', (req: OracleRequest) => port.postMessage(answer(req)));
