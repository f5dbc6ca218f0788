/**
 * The sandbox in tests: real bwrap. Under CI=true it must work (.ci/run installs bubblewrap) and every
 * test that starts bots runs them confined; elsewhere, on a machine where bwrap cannot confine, the tests
 * that need it skip and the rest start their bots unconfined, as the arena itself would not.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, type SandboxOptions } from '../../src/sandbox/sandbox.ts';
import { describeUnsupported, sandboxSupport } from '../../src/sandbox/probe.ts';
import type { Confinement } from '../../src/transport/process/confinement.ts';

/** Bots started by tests keep their persistent caches in a folder of the test run, not the machine's. */
process.env.ARENA_BOT_CACHE ||= mkdtempSync(join(tmpdir(), 'arena-bot-caches-'));

/** The repository root. */
const ROOT = join(import.meta.dirname, '..', '..');

/** Whether sandbox tests run here: always under CI, elsewhere where bwrap works. */
export const CAN_SANDBOX = process.env.CI === 'true' || sandboxSupport().ok;

/** A confinement for a bot of the checkout (fixture or built-in) whose main file is `entry`. */
export function sandboxFor(entry: string, o: Partial<Pick<SandboxOptions, 'guarded' | 'relay'>> = {}): Confinement {
  const support = sandboxSupport();
  if (!support.ok) throw new Error(describeUnsupported(support));
  return createSandbox({ support, guarded: o.guarded ?? [ROOT], code: { root: ROOT, entry }, ...(o.relay ? { relay: o.relay } : {}) });
}

/** `{ confine }` for a launcher where the sandbox tests run, else `{}` (see the module comment). */
export function confinedIfAble(entry: string, o: Partial<Pick<SandboxOptions, 'guarded' | 'relay'>> = {}): { confine?: Confinement } {
  return CAN_SANDBOX ? { confine: sandboxFor(entry, o) } : {};
}

/** The main file of fixture bot `name`. */
export const fixtureEntry = (name: string): string => join(ROOT, 'test/fixtures/bots', `${name}.ts`);
