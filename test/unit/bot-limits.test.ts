import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cpuBackstopSeconds,
  DEFAULT_MEMORY_CAP,
  defaultMemoryLimit,
  formatSize,
  MIN_MEMORY_BYTES,
  nodeOptionsFor,
  resolveExecutable,
  resolveLimits,
  wrapWithLimits,
} from '../../src/transport/process/bot-limits.ts';
import { classifyExit, OOM_LINE } from '../../src/transport/process/exit-cause.ts';

const MiB = 1024 * 1024;
const limits = resolveLimits({ memoryBytes: 512 * MiB, cpuSeconds: 30, fileBytes: 4 * MiB });

describe('bot limits - defaults and helpers', () => {
  it('defaults memory to a quarter of the machine, at most 2 GiB, never below the minimum', () => {
    const m = defaultMemoryLimit();
    expect(m).toBe(Math.max(MIN_MEMORY_BYTES, Math.min(DEFAULT_MEMORY_CAP, Math.floor(Math.min(totalmem(), process.constrainedMemory?.() || Infinity) / 4))));
    expect(resolveLimits()).toMatchObject({ memoryBytes: m, fileBytes: 1024 * MiB, maxProcesses: 128 });
    expect(resolveLimits()).not.toHaveProperty('cpuSeconds');
  });

  it('gives a CPU backstop above every core busy for every time limit, plus a minute', () => {
    const s = cpuBackstopSeconds(10_000, 5);
    expect(s).toBeGreaterThanOrEqual(50 + 60);
    expect(cpuBackstopSeconds(10_000, 0)).toBeGreaterThanOrEqual(10 + 60);
  });

  it('tells V8 a heap size that leaves room below the limit, and keeps a heap size the user chose', () => {
    expect(nodeOptionsFor(limits, undefined)).toBe('--max-old-space-size=320');
    expect(nodeOptionsFor(resolveLimits({ memoryBytes: 2048 * MiB }), '--enable-source-maps')).toBe('--enable-source-maps --max-old-space-size=1536');
    expect(nodeOptionsFor(limits, '--max-old-space-size=100')).toBe('--max-old-space-size=100');
    expect(nodeOptionsFor(resolveLimits({ memoryBytes: 64 * MiB }), '')).toBe('--max-old-space-size=16');
  });

  it('formats sizes in the binary units the flag takes', () => {
    expect(formatSize(384 * MiB)).toBe('384 MiB');
    expect(formatSize(1.5 * 1024 * MiB)).toBe('1.5 GiB');
    expect(formatSize(1536)).toBe('2 KiB');
  });

  it('resolves a command like spawn would, or says it is not there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-exec-'));
    const tool = join(dir, 'tool');
    writeFileSync(tool, '#!/bin/sh\n');
    chmodSync(tool, 0o755);
    writeFileSync(join(dir, 'data'), 'not executable');
    expect(resolveExecutable('tool', undefined, `/nonexistent:${dir}`)).toBe(tool);
    expect(resolveExecutable('./tool', dir)).toBe(tool);
    expect(resolveExecutable(tool, undefined)).toBe(tool);
    expect(resolveExecutable('data', undefined, dir)).toBeUndefined();
    expect(resolveExecutable('no-such-tool', undefined, dir)).toBeUndefined();
    expect(resolveExecutable(dir, undefined)).toBeUndefined();
  });
});

describe.runIf(process.platform === 'linux')('bot limits - the shell wrapper', () => {
  it('sets the limits on the process it becomes, soft and hard, and passes arguments through untouched', () => {
    const w = wrapWithLimits('/bin/sh', ['-c', 'cat /proc/$$/limits; printf "%s|" "$0" "$1"', 'a b', '"$x"'], limits);
    const out = execFileSync(w.command, w.args, { encoding: 'utf8' });
    const row = (name: string) => new RegExp(`^${name}\\s+(\\S+)\\s+(\\S+)`, 'm').exec(out)!.slice(1);
    expect(row('Max data size')).toEqual([`${512 * MiB}`, `${512 * MiB}`]);
    expect(row('Max file size')).toEqual([`${4 * MiB}`, `${4 * MiB}`]);
    expect(row('Max core file size')).toEqual(['0', '0']);
    expect(row('Max cpu time')).toEqual(['30', '35']);
    expect(out).toMatch(/a b\|"\$x"\|$/);
  });
});

describe('exit cause - what a bot process end earns', () => {
  const base = { code: null, signal: null, memoryBytes: 256 * MiB, fileBytes: 4 * MiB, cpuSeconds: 30 };

  it('charges memory for a watch kill over the limit, naming both sizes', () => {
    const c = classifyExit({ ...base, signal: 'SIGKILL', breach: { kind: 'memory', usedBytes: 300 * MiB, limitBytes: 256 * MiB } });
    expect(c).toEqual({ verdict: 'memory', clean: false, description: 'used 300 MiB, over its memory limit of 256 MiB (killed)' });
  });

  it('charges memory for a runtime that died of a failed allocation, quoting its line', () => {
    for (const line of [
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      'RangeError: Array buffer allocation failed',
      'MemoryError',
      "terminate called after throwing an instance of 'std::bad_alloc'",
      'memory allocation of 1073741824 bytes failed',
      'fatal error: runtime: out of memory',
      'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space',
    ]) {
      expect(OOM_LINE.test(line), line).toBe(true);
      const c = classifyExit({ ...base, code: 1, oomLine: line });
      expect(c.verdict, line).toBe('memory');
      expect(c.description).toBe(`ran out of memory under its memory limit of 256 MiB (exited with code 1): ${line}`);
    }
    expect(OOM_LINE.test('solved 15-puzzle in 52 moves')).toBe(false);
  });

  it('does not charge memory for a clean exit, whatever the bot printed', () => {
    expect(classifyExit({ ...base, code: 0, oomLine: 'MemoryError' })).toEqual({ verdict: 'crash', clean: true, description: 'exited with code 0' });
  });

  it('charges timeout for the CPU-time limit and crash for the file-size limit (signal or EFBIG) and the process cap', () => {
    expect(classifyExit({ ...base, signal: 'SIGXCPU' })).toMatchObject({ verdict: 'timeout', description: 'used up its CPU-time limit of 30 s (killed by signal SIGXCPU)' });
    expect(classifyExit({ ...base, signal: 'SIGXFSZ' })).toMatchObject({ verdict: 'crash', description: 'wrote past the file-size limit of 4 MiB (killed by signal SIGXFSZ)' });
    expect(classifyExit({ ...base, code: 1, fsizeLine: 'Error: EFBIG: file too large, write' })).toMatchObject({
      verdict: 'crash',
      description: 'wrote past the file-size limit of 4 MiB (exited with code 1)',
    });
    expect(classifyExit({ ...base, signal: 'SIGKILL', breach: { kind: 'processes', count: 200, limit: 128 } })).toMatchObject({
      verdict: 'crash',
      description: 'had 200 processes, over the limit of 128 (killed)',
    });
    expect(classifyExit({ ...base, code: 3 })).toEqual({ verdict: 'crash', clean: false, description: 'exited with code 3' });
  });

  it('charges memory when the kernel killed a process at the control group limit, whatever the exit looked like', () => {
    expect(classifyExit({ ...base, signal: 'SIGKILL', cgroupOom: true })).toEqual({
      verdict: 'memory',
      clean: false,
      description: 'killed by the kernel at its memory limit of 256 MiB (its control group counts heap, shared memory, memfd and tmpfs files) (killed by signal SIGKILL)',
    });
    expect(classifyExit({ ...base, code: 1, cgroupOom: true }).verdict).toBe('memory');
  });

  it('names a confined bot that died of a full disk budget, and only a confined one (with a budget)', () => {
    const line = 'OSError: [Errno 28] No space left on device';
    expect(classifyExit({ ...base, code: 1, diskLine: line, diskBytes: 256 * MiB })).toEqual({
      verdict: 'crash',
      clean: false,
      description: `filled its disk budget of 256 MiB (scratch and cache together) (exited with code 1): ${line}`,
    });
    expect(classifyExit({ ...base, code: 1, diskLine: line }).description).toBe('exited with code 1');
    expect(classifyExit({ ...base, code: 0, diskLine: line, diskBytes: 256 * MiB }).description).toBe('exited with code 0');
  });
});
