/**
 * Running a fixture of the checkout as an unprivileged user (nobody, through setpriv), the way a referee
 * that is not root runs: for tests, run as root, of what the arena does without root.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** The uid the fixtures run as. */
export const NOBODY_UID = 65534;

/** Whether `uid` can read the checkout (a clone in a 0700 folder, as CI makes, cannot be). */
export const readableBy = (uid: number): boolean =>
  spawnSync('setpriv', ['--reuid', String(uid), '--regid', String(uid), '--clear-groups', 'test', '-r', join(ROOT, 'package.json')]).status === 0;

/** What a fixture needs of the checkout, hard-linked (else copied) into a folder anyone may read. */
function linkedCopy(fixture: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'arena-as-user-'));
  chmodSync(dir, 0o755);
  for (const part of ['package.json', 'tsconfig.json', 'src', 'bots', 'node_modules', fixture]) {
    mkdirSync(dirname(join(dir, part)), { recursive: true });
    const linked = spawnSync('cp', ['-al', join(ROOT, part), join(dir, part)]).status === 0;
    if (!linked) cpSync(join(ROOT, part), join(dir, part), { recursive: true, dereference: true });
  }
  return dir;
}

/** Runs `fixture` (a path relative to the checkout) as nobody, with tsx, from `/`. */
export function runFixtureAsNobody(fixture: string, timeoutMs: number): SpawnSyncReturns<string> {
  const root = readableBy(NOBODY_UID) ? ROOT : linkedCopy(fixture);
  const loader = pathToFileURL(tsxLoaderPath(root)!).href;
  const uid = String(NOBODY_UID);
  return spawnSync('setpriv', ['--reuid', uid, '--regid', uid, '--clear-groups', process.execPath, '--import', loader, join(root, fixture)], {
    cwd: '/',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp' },
    encoding: 'utf8',
    timeout: timeoutMs,
  });
}
