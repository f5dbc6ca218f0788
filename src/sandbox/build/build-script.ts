/**
 * The shell program a build runs inside its sandbox. It copies the bot's folder (shown read-only) into
 * the build's writable space, runs the build command there with its stdout joined to its stderr (the
 * log, interleaved as written), and, only when that succeeded, writes the built folder as a tar stream to
 * its stdout, which is nothing else's: so the first byte on stdout says the build command itself succeeded.
 * Everything still running when the program ends dies with the sandbox's pid namespace.
 */
import { INSIDE } from '../bwrap-args.ts';

/** Where the bot's folder (read-only) appears inside a build's sandbox. */
export const SOURCE_INSIDE = `${INSIDE.folder}/source`;
/** The writable copy the build command runs in: inside /tmp, so within the disk budget. */
export const BUILD_INSIDE = '/tmp/build';
/** Exit code of the program when the folder could not be copied in (the log says why). */
export const COPY_FAILED = 120;

const SCRIPT = [
  'src=$1; cmd=$2; nproc=$3',
  `mkdir ${BUILD_INSIDE} && cp -R "$src/." ${BUILD_INSIDE} || { echo "arena: cannot copy the bot's folder into the build's space" >&2; exit ${COPY_FAILED}; }`,
  `cd ${BUILD_INSIDE} || exit ${COPY_FAILED}`,
  // RLIMIT_NPROC where no pids group holds the build: `-u` in bash, `-p` in dash.
  'if [ -n "$nproc" ]; then ulimit -u "$nproc" 2>/dev/null || ulimit -p "$nproc" || exit 1; fi',
  'if [ -n "$cmd" ]; then /bin/sh -c "$cmd" </dev/null >&2 || exit $?; fi',
  // Owners are the build's pool uid: meaningless outside, so numeric and dropped on unpacking.
  `exec tar --numeric-owner -C ${BUILD_INSIDE} -cf - .`,
].join('\n');

/** The arguments of `/bin/sh` for one build: `command` empty for a bot that needs no build. */
export function buildArgs(command: string, nproc: number | undefined): string[] {
  return ['-c', SCRIPT, 'arena-build', SOURCE_INSIDE, command, nproc === undefined ? '' : String(nproc)];
}
