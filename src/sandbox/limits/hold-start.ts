/**
 * What one confined start holds while its bot runs, taken before it starts and given back once it is
 * gone: as root, a uid of its own (uid-pool.ts); control groups for its memory and its pinned CPUs where
 * the machine has them (bot-cgroup.ts); its writable space under its disk budget (writable-space.ts).
 * Whatever was taken is given back if a later part cannot be had, so a refused start leaks nothing.
 */
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import type { KernelLimits } from '../../transport/process/confinement.ts';
import { formatCpuList } from '../../transport/process/cpu-affinity.ts';
import { createBotGroup, type BotGroup } from './bot-cgroup.ts';
import { takeUid } from './uid-pool.ts';
import { openSpace, type WritableSpace } from './writable-space.ts';

/** One start's holdings. */
export interface Holdings {
  /** As root: the uid (and gid) the bot runs as. */
  readonly user?: { readonly uid: number; readonly gid: number };
  /** The bot's control groups, where the machine has them. */
  readonly group?: BotGroup;
  readonly space: WritableSpace;
  readonly kernel: KernelLimits;
  /** Gives everything back (the cache is written back first). Idempotent. */
  release(): void;
}

/** Takes what a start of bot `start.name` needs; `root` says whether the referee runs as root. */
export function holdStart(start: { name: string; memoryBytes: number; diskBytes: number; cpus?: readonly number[] }, root: boolean): Result<Holdings> {
  const undo: Array<() => void> = [];
  const fail = (reason: string): Result<never> => {
    for (const u of undo.reverse()) u();
    return reject('sandbox', reason);
  };
  let user: { uid: number; gid: number } | undefined;
  if (root) {
    const slot = takeUid();
    if (typeof slot === 'string') return fail(slot);
    undo.push(slot.release);
    user = { uid: slot.uid, gid: slot.gid };
  }
  const group = createBotGroup({ memoryBytes: start.memoryBytes, ...(start.cpus?.length ? { cpus: formatCpuList(start.cpus) } : {}) });
  if (typeof group === 'string') return fail(group);
  if (group) undo.push(group.remove);
  const space = openSpace(start.name, start.diskBytes, user);
  if (!space.ok) return fail(space.reason);
  undo.push(space.value.release);
  let released = false;
  return ok({
    ...(user ? { user } : {}),
    ...(group ? { group } : {}),
    space: space.value,
    kernel: { oomKills: () => group?.oomKills() ?? 0 },
    release() {
      if (released) return;
      released = true;
      // The space first (its cache is written back), the group once its pages are freed, the uid last.
      for (const u of undo.reverse()) u();
    },
  });
}
