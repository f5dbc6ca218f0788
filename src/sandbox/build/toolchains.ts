/**
 * The compilers and runtimes a build can use: those on the PATH a build gets inside its sandbox, which
 * shows the system's program folders and nothing else (a compiler under a home folder or a version
 * manager's shims is on the server's own PATH but not visible to a build, so it is not listed). Each
 * version is the first line the program prints for `--version`. Asked once per process, for the page
 * `arena serve` lists them on.
 */
import { resolveExecutable } from '../../transport/process/bot-limits.ts';
import { runCommand } from '../../transport/process/run-command.ts';

/** One toolchain found. */
export interface Toolchain {
  /** The command a build names: `gcc`, `python3`, … */
  readonly name: string;
  /** The first line of its `--version` (`go version` for Go), at most 200 characters. */
  readonly version: string;
}

/** The commands looked for, in the order listed. */
export const TOOLCHAIN_NAMES = ['gcc', 'g++', 'cc', 'clang', 'make', 'python3', 'node', 'java', 'javac', 'rustc', 'cargo', 'go'] as const;

/** The PATH of a build's command (sandbox.ts: the system's program folders, for a command in /bin). */
export const BUILD_PATH = '/usr/local/bin:/usr/bin:/bin';

/** The first non-empty line a program prints about its version (stdout, else stderr: older javas print there). */
function versionOf(program: string, name: string): string | undefined {
  const run = runCommand(program, name === 'go' ? ['version'] : ['--version'], { env: { PATH: BUILD_PATH }, timeoutMs: 10_000 });
  if (run.error) return undefined;
  const line = [run.stdout, run.stderr].flatMap((t) => t.split('\n')).map((l) => l.trim()).find(Boolean);
  return line?.slice(0, 200);
}

/** The toolchains on `path` (default: a build's), each with its version; those that do not answer are left out. */
export function findToolchains(path = BUILD_PATH, names: readonly string[] = TOOLCHAIN_NAMES): Toolchain[] {
  const out: Toolchain[] = [];
  for (const name of names) {
    const program = resolveExecutable(name, '/', path);
    if (!program) continue;
    const version = versionOf(program, name);
    if (version !== undefined) out.push({ name, version });
  }
  return out;
}

let found: readonly Toolchain[] | undefined;

/** What a build can use on this server (found on first use, then kept: installing a compiler needs a restart to show). */
export function installedToolchains(): readonly Toolchain[] {
  found ??= findToolchains();
  return found;
}
