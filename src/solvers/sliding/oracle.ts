import { Worker } from 'node:worker_threads';
import type { Bound, PuzzleState, SlidingState } from '../../core/types.ts';
import type { OptimumOracle, OracleResult } from '../oracle.ts';
import { sliding } from '../../puzzles/sliding/index.ts';
import { boundBySearch, EXACT_MAX_CELLS } from './exact.ts';
import type { OracleReply, OracleRequest, OracleThread, OracleWorkerData } from './oracle-messages.ts';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST_DIR, projectRootOf, runsCompiled } from '../../runtime/source-tree.ts';
import { defaultCacheDir } from './pdb-cache.ts';
import { PIN_CONFIRMED, PIN_REFUTED, PIN_SET } from './oracle-messages.ts';

/** Options of the sliding oracle. */
export interface SlidingOracleOptions {
  /** Per-scramble budget of the exact search, ms (default 30 s). */
  readonly budgetMs?: number;
  /** Pattern database cache (default `.cache/pdb`, or ARENA_CACHE_DIR). */
  readonly cacheDir?: string;
  /** Nodes between budget checks (default 500,000, a few milliseconds). */
  readonly sliceNodes?: number;
  /** Budget of the search on 5×5 boards, which only raises the lower bound (default 3 s). */
  readonly boundBudgetMs?: number;
  /** The 5×5 partition whose tables are read (default the 6-6-6-6; tests pass small ones). */
  readonly partition5x5?: readonly (readonly number[])[];
}

/** The default per-scramble budget of the exact search. */
export const ORACLE_BUDGET_MS = 30_000;
/**
 * The default budget on 5×5, where the optimum is out of reach (hours of IDA*) but 3 s of IDA* over the
 * pattern databases raise their bound by about 12 moves (to 0.93 of the optimum on Korf & Felner's fifty).
 */
export const BOUND_BUDGET_MS = 3_000;

interface Pending {
  readonly state: SlidingState;
  readonly bound: Bound;
  readonly known: number | undefined;
  readonly resolve: (r: OracleResult) => void;
}

/**
 * The exact optimum of sliding boards of 10–16 cells (the ≤ 9-cell ones have exact tables already): IDA*
 * with the 4×4 pattern databases (Manhattan + linear conflict on the other shapes) in one worker thread, so
 * a match goes on while it searches. On 5×5 it raises the lower bound instead: the 6-6-6-6 pattern
 * databases when they are in the cache, then IDA* over them for {@link BOUND_BUDGET_MS} (every answer says
 * which bound it is in its note). Requests are answered one at a time, in order. The thread is started on
 * the first request (or earlier, by {@link SlidingOracle.warm}) and holds the process open only while
 * requests are pending.
 *
 * Every exact answer's solution is replayed here before it is believed: the optimum is then at least an
 * upper bound that is achieved, and optimality rests on the admissibility of the heuristics (tested). Given
 * the length of an answer the caller has validated, the search only proves that nothing shorter exists.
 *
 * The thread never searches while a timed solve is outstanding (see {@link SlidingOracle.hold}): a shared
 * Int32 gate, shut at the first hold and opened at the last release, which the thread checks between
 * slices of a fraction of a millisecond. The exception is a thread pinned to cores no bot runs on
 * ({@link SlidingOracle.runOn}): it shares no core with a timed bot, so holds do not pause it.
 */
export class SlidingOracle implements OptimumOracle {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  private failed: string | null = null;
  private closed = false;
  private readonly budgetMs: number;
  private readonly cacheDir: string;
  private readonly sliceNodes?: number;
  private readonly gate = new Int32Array(new SharedArrayBuffer(8));
  private holds = 0;
  private readonly boundBudgetMs: number;
  private readonly partition5x5?: readonly (readonly number[])[];
  private pin: { readonly cpuList: string; readonly pinThread: (tid: number) => boolean } | undefined;

  constructor(opts: SlidingOracleOptions = {}) {
    this.budgetMs = opts.budgetMs ?? ORACLE_BUDGET_MS;
    this.cacheDir = opts.cacheDir ?? defaultCacheDir();
    this.sliceNodes = opts.sliceNodes;
    this.boundBudgetMs = opts.boundBudgetMs ?? BOUND_BUDGET_MS;
    this.partition5x5 = opts.partition5x5;
  }

  covers(state: PuzzleState, bound: Bound): boolean {
    if (state.kind !== sliding.kind || bound.optimal !== undefined) return false;
    const s = state as SlidingState;
    return s.rows * s.cols <= EXACT_MAX_CELLS || boundBySearch(s.rows, s.cols);
  }

  improve(state: PuzzleState, bound: Bound, known?: number): Promise<OracleResult> {
    if (!this.covers(state, bound)) return Promise.resolve({ bound, ms: 0 });
    if (this.closed) return Promise.resolve({ bound, note: 'oracle closed', interrupted: true, ms: 0 });
    if (this.failed) return Promise.resolve({ bound, note: this.failed, ms: 0 });
    const s = state as SlidingState;
    // A known length at the bound is the optimum already; one below it cannot be (the caller erred).
    if (known !== undefined && known === bound.lowerBound) return Promise.resolve({ bound: { optimal: known, lowerBound: known }, ms: 0 });
    const usable = known !== undefined && known > bound.lowerBound ? known : undefined;
    return new Promise((resolve) => {
      const id = ++this.seq;
      this.pending.set(id, { state: s, bound, known: usable, resolve });
      const w = this.start();
      w.ref();
      const budgetMs = boundBySearch(s.rows, s.cols) ? Math.min(this.budgetMs, this.boundBudgetMs) : this.budgetMs;
      const req: OracleRequest = { id, rows: s.rows, cols: s.cols, tiles: s.tiles, budgetMs, ...(usable !== undefined ? { known: usable } : {}) };
      w.postMessage(req);
    });
  }

  /** True once its thread is started (by the first request, or by {@link warm}). */
  get started(): boolean {
    return this.worker !== null;
  }

  /** Starts the thread (it reads the 4×4 tables first) when a 4×4 is among `samples`; it keeps no process open. */
  warm(samples: readonly PuzzleState[]): void {
    if (this.closed || this.failed || this.worker) return;
    const fourByFour = samples.some((s) => s.kind === sliding.kind && (s as SlidingState).rows === 4 && (s as SlidingState).cols === 4);
    if (fourByFour) this.start().unref();
  }

  /**
   * Called as a timed solve starts: pauses the oracle (see {@link pause}) unless its thread runs on cores
   * of its own, which no bot uses ({@link runOn}, once the worker has seen the kernel agree).
   */
  hold(): () => void {
    return this.pinned ? () => {} : this.pause();
  }

  /**
   * Pauses the search until the returned function is called (and every other pause is released): a shared
   * gate the thread checks between slices of about a tenth of a millisecond.
   */
  pause(): () => void {
    if (this.holds++ === 0) {
      Atomics.store(this.gate, 0, 1);
      // A worker waiting for the gate to stay open a moment (oracle-worker.ts) learns it has shut again.
      Atomics.notify(this.gate, 0);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) {
        Atomics.store(this.gate, 0, 0);
        Atomics.notify(this.gate, 0);
      }
    };
  }

  /** Pins the thread to the cores of `cpuList` when it starts (see OptimumOracle.runOn); no effect once it has started. */
  runOn(cpuList: string, pinThread: (tid: number) => boolean): void {
    if (!this.worker && cpuList) this.pin = { cpuList, pinThread };
  }

  /** True once the thread runs on the cores of {@link runOn} only: pinned here, and confirmed by the worker. */
  get pinned(): boolean {
    return Atomics.load(this.gate, 1) === PIN_CONFIRMED;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.settleAll('oracle closed before it finished', true);
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    // Compiled, the worker is plain JS; from source, a plain-JS entry registers tsx in the worker's fresh
    // module graph, then loads oracle-worker.ts.
    const entry = runsCompiled(import.meta.url)
      ? pathToFileURL(join(projectRootOf(import.meta.url), DIST_DIR, 'oracle-worker.js'))
      : new URL('./oracle-boot.mjs', import.meta.url);
    const data: OracleWorkerData = {
      cacheDir: this.cacheDir,
      gate: this.gate.buffer as SharedArrayBuffer,
      ...(this.sliceNodes ? { sliceNodes: this.sliceNodes } : {}),
      ...(this.partition5x5 ? { partition5x5: this.partition5x5 } : {}),
      ...(this.pin ? { pin: this.pin.cpuList } : {}),
    };
    const w = new Worker(entry, { workerData: data });
    w.on('message', (m: OracleReply | OracleThread) => ('tid' in m ? this.onThread(m.tid) : this.onReply(m)));
    w.on('error', (e) => this.fail(`oracle failed: ${e.message}`));
    w.on('exit', (code) => {
      if (!this.closed) this.fail(`oracle thread exited (code ${code})`);
    });
    this.worker = w;
    return w;
  }

  private onThread(tid: number): void {
    Atomics.store(this.gate, 1, this.pin?.pinThread(tid) ? PIN_SET : PIN_REFUTED);
    Atomics.notify(this.gate, 1);
  }

  private onReply(reply: OracleReply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker?.unref();
    p.resolve(this.interpret(p, reply));
  }

  private interpret(p: Pending, reply: OracleReply): OracleResult {
    if (reply.status === 'exact') {
      const check = sliding.replay(p.state, reply.moves);
      if (check.verdict !== 'solved' || reply.optimal < p.bound.lowerBound) {
        return { bound: p.bound, note: 'oracle answer failed its check; bound kept', ms: reply.ms };
      }
      return { bound: { optimal: reply.optimal, lowerBound: reply.optimal }, ms: reply.ms, nodes: reply.nodes };
    }
    if (reply.status === 'proved') {
      // The proof is only as good as the length it was given: it must be the one asked about.
      if (reply.optimal !== p.known || reply.optimal < p.bound.lowerBound) {
        return { bound: p.bound, note: 'oracle proof failed its check; bound kept', ms: reply.ms };
      }
      return { bound: { optimal: reply.optimal, lowerBound: reply.optimal }, ms: reply.ms, nodes: reply.nodes };
    }
    // The search's last threshold is a proven lower bound; the optimum has the parity of the cheap bound.
    let lb = Math.max(p.bound.lowerBound, reply.lowerBound ?? 0);
    if ((lb - p.bound.lowerBound) % 2 !== 0) lb++;
    return { bound: { lowerBound: lb }, note: reply.note, ms: reply.ms, ...(reply.nodes !== undefined ? { nodes: reply.nodes } : {}) };
  }

  private fail(note: string): void {
    if (this.failed) return;
    this.failed = note;
    this.worker = null;
    this.settleAll(note);
  }

  private settleAll(note: string, interrupted = false): void {
    for (const p of this.pending.values()) p.resolve({ bound: p.bound, note, ms: 0, ...(interrupted ? { interrupted } : {}) });
    this.pending.clear();
  }
}
