/**
 * Bot folders for tests of bots in other languages, set up the way docs/writing-bots.md tells a person to: a Python
 * bot gets the SDK pip-installed into its own folder (no network: the SDK's build backend needs nothing), a
 * C bot is compiled with gcc. Also the real CLI, run on a temp database, and what a match printed.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnArena } from '../e2e/helpers.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * A fresh temp folder. Run as root, it is given to nobody (65534), as a contestant's folder would be owned
 * by its contestant, and opened to others: each start runs as a uid of its own (of the pool), never as root.
 */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `arena-${prefix}-`));
  if (process.getuid?.() === 0) {
    chownSync(dir, 65534, 65534);
    chmodSync(dir, 0o777);
  }
  return dir;
}

let python: string | undefined;

/**
 * The real interpreter behind `python3`: where python3 is a shim (pyenv), the shim needs its own tree and
 * environment, which a confined bot does not get; the interpreter itself needs only its prefix.
 */
export function pythonExecutable(): string {
  python ??= execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
  return python;
}

/** `pip install --no-index --target <dir> ./sdk/python`: the SDK lands beside the bot's own files. */
export function installSdkInto(dir: string): void {
  execFileSync(pythonExecutable(), ['-m', 'pip', 'install', '--quiet', '--no-index', '--target', dir, join(ROOT, 'sdk/python')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' },
  });
}

/** gcc -O2, as the example's comment says. */
export function compileC(source: string, out: string): void {
  execFileSync('gcc', ['-O2', '-Wall', '-o', out, source], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Runs the real CLI on `db`; the exit code and output. */
export async function arena(args: string[], db: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return spawnArena([...args, '--db', db], {}).done;
}

/** One result of `arena match --json`. */
export interface JsonResult {
  readonly scramble: number;
  readonly bot: string;
  readonly verdict: string;
  readonly moves: number;
  readonly timeMs: number;
  readonly optimal?: number;
  readonly error?: string;
}

/** The results of a match, from its --json document. */
export function resultsOf(stdout: string): JsonResult[] {
  return (JSON.parse(stdout) as { results: JsonResult[] }).results;
}
