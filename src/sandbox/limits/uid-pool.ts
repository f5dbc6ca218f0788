/**
 * A distinct uid per running bot, as isolate gives each box its own: a root referee takes a free slot of
 * a pool (60000–60999 by default) for each start and gives it back when the bot is gone. Two bots never
 * share a uid, so neither can reach the other through /proc/<pid>/root, ptrace, signals, the per-uid
 * kernel keyring, or files one of them made.
 *
 * A slot is taken by creating its lock file exclusively (O_EXCL) in a folder only root can write,
 * holding the taker's pid; so two referees on one machine never hand out the same uid. A lock whose
 * holder is gone (a referee killed before it could give its slots back) is taken over.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alive } from '../../transport/process/cpu-cgroup.ts';

/** The pool: uids [first, first + size). Chosen above the usual ranges of people (1000–59999) and below nobody (65534). */
export const UID_POOL = { first: 60000, size: 1000 } as const;

/** Where the slots' locks are (a folder root alone can write). ARENA_UID_LOCKS moves it (tests). */
export const lockFolder = (): string => process.env.ARENA_UID_LOCKS || '/run/puzzle-arena/uids';

/** A slot taken: the uid (its gid is the same number) and how to give it back. */
export interface UidSlot {
  readonly uid: number;
  readonly gid: number;
  /** Gives the slot back. Idempotent. */
  release(): void;
}

const held = new Map<number, () => void>();
let hooked = false;

function holder(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'latin1').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Creates the lock exclusively; true when this referee now holds it. */
function claim(file: string): boolean {
  try {
    writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o644 });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const pid = holder(file);
  if (pid === undefined || pid === process.pid || alive(pid)) return false;
  // A dead referee's slot: remove its lock and race for it like anyone else.
  try {
    unlinkSync(file);
  } catch {
    return false;
  }
  try {
    writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o644 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Takes a free uid of the pool, or says why none could be taken (the lock folder cannot be made, every
 * slot is held). Slots are tried from a random start so referees rarely contend for the same one.
 */
export function takeUid(pool: { first: number; size: number } = UID_POOL): UidSlot | string {
  const folder = lockFolder();
  try {
    mkdirSync(folder, { recursive: true, mode: 0o755 });
  } catch (e) {
    return `cannot make the uid pool's lock folder ${folder}: ${(e as Error).message}`;
  }
  const start = Math.floor(Math.random() * pool.size);
  for (let i = 0; i < pool.size; i++) {
    const uid = pool.first + ((start + i) % pool.size);
    if (held.has(uid)) continue;
    const file = join(folder, String(uid));
    let got: boolean;
    try {
      got = claim(file);
    } catch (e) {
      return `cannot take a uid of the pool in ${folder}: ${(e as Error).message}`;
    }
    if (!got) continue;
    let done = false;
    const release = (): void => {
      if (done) return;
      done = true;
      held.delete(uid);
      try {
        if (holder(file) === process.pid) unlinkSync(file);
      } catch {
        // already gone
      }
    };
    held.set(uid, release);
    if (!hooked) {
      hooked = true;
      process.on('exit', () => {
        for (const r of [...held.values()]) r();
      });
    }
    return { uid, gid: uid, release };
  }
  return `every uid of the pool ${pool.first}-${pool.first + pool.size - 1} is held by a running bot`;
}
