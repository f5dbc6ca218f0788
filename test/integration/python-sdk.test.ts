import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pythonExecutable, ROOT } from '../helpers/bot-folders.ts';

// The Python SDK's own unit tests (sdk/python/tests, the standard library's unittest), run by `npm test` so
// CI runs them: the session against an in-memory referee, chunking and bounds, a real bot process over stdio.

describe('python-sdk - the unittest suite of sdk/python', () => {
  it('python-sdk - every test of sdk/python/tests passes', () => {
    const r = spawnSync(pythonExecutable(), ['-m', 'unittest', 'discover', '-s', 'tests', '-t', 'tests', '-v'], {
      cwd: join(ROOT, 'sdk/python'),
      encoding: 'utf8',
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const ran = /Ran (\d+) tests?/.exec(r.stderr);
    expect(Number(ran?.[1])).toBeGreaterThanOrEqual(30);
    expect(r.stderr).toMatch(/\nOK\n/);
  });
});
