import { describe, expect, it } from 'vitest';
import { BUILD_LIMITS } from '../../src/sandbox/build/build-limits.ts';
import { classifyBuild, type BuildEnd } from '../../src/sandbox/build/classify-build.ts';

const clean: BuildEnd = {
  exit: { description: 'exited with code 0', clean: true, verdict: 'crash' },
  joinFailed: false,
  refusedForks: 0,
  outputBytes: 10240,
  log: '',
  unpacked: { ok: true },
};
const failed = (description: string, more: Partial<BuildEnd> = {}): BuildEnd => ({ ...clean, exit: { description, clean: false, verdict: 'crash' }, outputBytes: 0, ...more });

describe('classifyBuild', () => {
  it('classify build - a clean exit with its output unpacked is a success', () => {
    expect(classifyBuild(clean, BUILD_LIMITS)).toBeUndefined();
  });

  it('classify build - each limit is said in the participant\'s words, with the default figures', () => {
    expect(classifyBuild({ ...failed('killed by signal SIGKILL'), stopped: 'timeout' }, BUILD_LIMITS)).toEqual({ code: 'build-timeout', reason: 'the build ran out of time after 120 s' });
    expect(classifyBuild({ ...failed('x'), exit: { description: 'killed', clean: false, verdict: 'memory' } }, BUILD_LIMITS)).toEqual({ code: 'build-memory', reason: 'the build used more than 1 GiB of memory' });
    expect(classifyBuild(failed('exited with code 2', { log: 'sh: 1: Cannot fork\n' }), BUILD_LIMITS)).toEqual({ code: 'build-processes', reason: 'the build could not fork: more than 256 processes' });
    expect(classifyBuild(failed('exited with code 1', { log: "dd: error writing 'x': No space left on device\n" }), BUILD_LIMITS)).toEqual({ code: 'build-disk', reason: 'the build wrote more than its 256 MiB disk budget' });
  });

  it('classify build - forks refused at the cap fail the build even when its command exited 0', () => {
    expect(classifyBuild({ ...clean, refusedForks: 3 }, BUILD_LIMITS)?.code).toBe('build-processes');
  });

  it('classify build - a fork or disk message in the log of a successful build does not fail it where forks are counted', () => {
    expect(classifyBuild({ ...clean, log: 'Resource temporarily unavailable; No space left on device' }, BUILD_LIMITS)).toBeUndefined();
  });

  it('classify build - where no pids group counts refused forks, a fork failure in the log fails even a clean exit', () => {
    const { refusedForks: _, ...uncounted } = clean;
    expect(classifyBuild({ ...uncounted, log: 'sh: 1: Cannot fork\n' }, BUILD_LIMITS)?.code).toBe('build-processes');
    expect(classifyBuild(uncounted, BUILD_LIMITS)).toBeUndefined();
  });

  it('classify build - a failed command is build-failed; a failure after output began is the output\'s', () => {
    expect(classifyBuild(failed('exited with code 2'), BUILD_LIMITS)).toEqual({ code: 'build-failed', reason: 'the build command failed (exited with code 2)' });
    expect(classifyBuild({ ...failed('exited with code 2'), outputBytes: 512 }, BUILD_LIMITS)?.code).toBe('build-output');
    expect(classifyBuild({ ...clean, unpacked: { ok: false, reason: 'entry "x" is a symbolic link' } }, BUILD_LIMITS)).toEqual({ code: 'build-output', reason: 'the built folder was refused: entry "x" is a symbolic link' });
  });

  it('classify build - a cancelled build is cancelled whatever else happened', () => {
    expect(classifyBuild({ ...failed('killed by signal SIGKILL', { log: 'Cannot fork' }), stopped: 'cancelled' }, BUILD_LIMITS)?.code).toBe('build-cancelled');
  });
});
