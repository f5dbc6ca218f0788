/**
 * One build of a submitted bot, confined as a playing bot is (sandbox.ts: its own pool uid, a memory
 * control group, the seccomp filter, a read-only system, no other bot's files, its writable space under a
 * disk budget) with no network, a wall-time limit and a process cap (pids-group.ts, else RLIMIT_NPROC on
 * its uid). The bot's folder is shown read-only; the build runs in a writable copy of it (build-script.ts)
 * and the built folder comes back out as a tar stream on a pipe, unpacked on the host by intake with an
 * upload's caps: what a build leaves is as untrusted as what was uploaded.
 *
 * Everything the build started dies with its sandbox's pid namespace when the build ends or is stopped,
 * so a build can never hang or leave a process behind; its uid, groups and space are then given back.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import type { Rejection } from '../../core/types.ts';
import { unpackTarStream } from '../../intake/unpack.ts';
import { spawnBot } from '../../transport/process/bot-process.ts';
import type { ConfinedStart } from '../../transport/process/confinement.ts';
import { clearCache } from '../limits/writable-space.ts';
import { describeUnsupported, sandboxSupport, type SandboxSupport } from '../probe.ts';
import { createSandbox } from '../sandbox.ts';
import { buildArgs, SOURCE_INSIDE } from './build-script.ts';
import { BuildLog, LOG_BYTES } from './build-log.ts';
import { resolveBuildLimits, type BuildFailureCode, type BuildLimits } from './build-limits.ts';
import { classifyBuild, type BuildEnd } from './classify-build.ts';
import { createPidsGroup, type PidsGroup } from './pids-group.ts';

/** One build to run. */
export interface BuildRequest {
  /** The bot's unpacked folder (readable by others, as an intake folder or a snapshot is); never written. */
  readonly source: string;
  /** Where the built folder is unpacked: a new folder (its parent must exist). */
  readonly dest: string;
  /** The manifest's `build` command, run by /bin/sh in the copy; absent or empty: the folder comes back as it is. */
  readonly command?: string;
  readonly limits?: Partial<BuildLimits>;
  /** Stops the build (the result is `build-cancelled`). */
  readonly signal?: AbortSignal;
  /** Paths no runtime the sandbox shows may lie in (the database, the checkout). */
  readonly guarded?: readonly string[];
  /** Whether and how bots can be confined here; default this process's probe. */
  readonly support?: SandboxSupport;
}

/** A build that succeeded. */
export interface Built {
  /** `dest`, holding the built folder. */
  readonly folder: string;
  /** stdout and stderr, interleaved, at most 64 KiB kept. */
  readonly log: string;
  /** Wall time from the start of the sandbox to the built folder unpacked. */
  readonly seconds: number;
}

/** A build that failed: a rejection with the log kept for the participant. */
export interface BuildFailure extends Rejection {
  readonly code: BuildFailureCode;
  readonly log: string;
  readonly seconds: number;
}

/** The outcome of one build. */
export type BuildResult = { readonly ok: true; readonly value: Built } | BuildFailure;

/** Exit code of the outer shell when the build cannot join its pids group (as sandbox.ts's own join). */
const JOIN_FAILED = 125;

const MiB = 2 ** 20;
let serial = 0;

/** Runs one build; see the module comment. Never throws for anything the build does. */
export async function runBuild(o: BuildRequest): Promise<BuildResult> {
  const started = performance.now();
  const limits = resolveBuildLimits(o.limits);
  const seconds = () => Math.round(performance.now() - started) / 1000;
  const refuse = (code: BuildFailureCode, reason: string, log = ''): BuildFailure => ({ ok: false, code, reason, log, seconds: seconds() });

  if (o.signal?.aborted) return refuse('build-cancelled', 'the build was cancelled');
  const support = o.support ?? sandboxSupport();
  if (!support.ok) return refuse('build-sandbox', `cannot confine the build: ${describeUnsupported(support)}`);
  const source = resolve(o.source);
  const dest = resolve(o.dest);
  try {
    if (!statSync(source).isDirectory()) return refuse('build-sandbox', `${source} is not a folder`);
  } catch {
    return refuse('build-sandbox', `${source} does not exist`);
  }
  if (existsSync(dest)) return refuse('build-sandbox', `cannot build into ${dest}: it already exists`);

  const root = process.getuid?.() === 0;
  const pids = root ? createPidsGroup(limits.processes) : undefined;
  // Without a pids group, RLIMIT_NPROC: as root on the build's own pool uid; otherwise counted in the
  // sandbox's own user namespace (Linux 5.14 and later), so again the build's processes alone.
  const args = buildArgs(o.command?.trim() ?? '', pids ? undefined : limits.processes);
  const name = `arena-build-${process.pid}-${++serial}`;
  const sandbox = createSandbox({ support, guarded: o.guarded ?? [], played: { path: source, avoid: [] } });
  // The build's files in its space are charged to its memory group too: the group holds both budgets, so
  // a build may use its memory and its disk to the full, each.
  const prepared = sandbox.prepare({ command: '/bin/sh', args, cwd: SOURCE_INSIDE, env: {}, start: { name, memoryBytes: limits.memoryBytes + limits.diskBytes, diskBytes: limits.diskBytes } });
  if (!prepared.ok) {
    pids?.remove();
    return refuse('build-sandbox', `cannot confine the build: ${prepared.reason}`);
  }

  const log = new BuildLog(LOG_BYTES);
  const bot = spawnBot({
    command: '/bin/sh',
    args,
    env: {},
    stdio: true,
    // RLIMIT_FSIZE above the budget: the full space (ENOSPC) is what stops a file, and says so.
    limits: { memoryBytes: limits.memoryBytes, fileBytes: limits.diskBytes + MiB, maxProcesses: limits.processes, diskBytes: limits.diskBytes },
    confined: pids ? joining(prepared.value, pids) : prepared.value,
  });
  let raw: number | null = null;
  bot.child.once('exit', (code) => (raw = code));
  bot.child.stdin?.on('error', () => undefined);
  bot.child.stdin?.end();
  bot.child.stderr?.on('data', (text: string) => log.add(text));
  let outputBytes = 0;
  const output = bot.output!;
  // Intake reads through a pass-through that fails when the pipe closes without its end (the sandbox was
  // stopped mid-stream and its pipes dropped), so the unpacking always settles.
  const stream = new PassThrough();
  let ended = false;
  output.on('data', (chunk: Buffer) => (outputBytes += chunk.length));
  output.once('end', () => (ended = true));
  output.once('close', () => ended || stream.destroy(new Error('the build ended before its output was complete')));
  output.on('error', () => undefined);
  output.pipe(stream);
  const unpacking = unpackTarStream(stream, dest, limits.output).then((r) => {
    // A refused output stops the build: its tar then fails on the closed pipe instead of waiting on it.
    if (!r.ok) output.destroy();
    return r;
  });

  let stopped: 'timeout' | 'cancelled' | undefined;
  const stop = (why: 'timeout' | 'cancelled') => {
    stopped ??= why;
    bot.kill();
  };
  const timer = setTimeout(() => stop('timeout'), limits.seconds * 1000);
  const onAbort = () => stop('cancelled');
  o.signal?.addEventListener('abort', onAbort, { once: true });
  await bot.exited;
  clearTimeout(timer);
  o.signal?.removeEventListener('abort', onAbort);
  const unpacked = await unpacking;
  // Nothing the build started outlives the result: the group empties a moment after the sandbox ends.
  await pids?.drain(5000);

  const end: BuildEnd = {
    ...(stopped ? { stopped } : {}),
    exit: bot.exit ?? { description: 'never started', clean: false, verdict: 'crash' },
    joinFailed: raw === JOIN_FAILED && outputBytes === 0 && log.bytes === 0,
    ...(pids ? { refusedForks: pids.refusedForks() } : {}),
    outputBytes,
    log: log.text(),
    unpacked: unpacked.ok ? { ok: true } : { ok: false, reason: unpacked.reason },
  };
  pids?.remove();
  // The space was given back when the sandbox ended; the cache it wrote back is no bot's.
  clearCache(name);
  const failure = classifyBuild(end, limits);
  if (!failure) return { ok: true, value: { folder: dest, log: end.log, seconds: seconds() } };
  if (unpacked.ok) rmSync(dest, { recursive: true, force: true });
  return refuse(failure.code, failure.reason, end.log);
}

/** The start with an outer step that moves the build's first process into its pids group (exit 125 if refused). */
function joining(start: ConfinedStart, pids: PidsGroup): ConfinedStart {
  return {
    ...start,
    wrap(chain, env) {
      const outer = start.wrap(chain, env);
      const script = `echo $$ > "$1" || exit ${JOIN_FAILED}; shift; exec "$@"`;
      return { ...outer, command: '/bin/sh', args: ['-c', script, 'arena-pids', pids.procs, outer.command, ...outer.args] };
    },
  };
}
