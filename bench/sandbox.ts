/**
 * What the sandbox adds to a bot's start: the time from the launcher's start to a handshaken link, with
 * and without bubblewrap, for the smallest stdio bot (a shell that prints its hello) and the smallest
 * WebSocket bot (Node with ws: the start includes Node's own), the latter through the compiled relay and
 * through the Node fallback. Medians of starts taken in turn, so drift on a loaded machine hits all alike.
 * The figure that matters is the difference: the target is at most 20 ms added per start.
 */
import { chownSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BotLauncher } from '../src/protocol/link.ts';
import { describeUnsupported, sandboxSupport } from '../src/sandbox/probe.ts';
import { createSandbox } from '../src/sandbox/sandbox.ts';
import type { Confinement } from '../src/transport/process/confinement.ts';
import { createProcessLauncher } from '../src/transport/process/process-launcher.ts';
import { startArenaServer, type ArenaServer } from '../src/transport/ws-server.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const ROOT = resolve(import.meta.dirname, '..');
const HELLO = JSON.stringify({ type: 'hello', protocol: 1, name: 'hello', version: '1', capabilities: [{ kind: 'sliding' }] });
const WS_BOT = join(ROOT, 'bench', '_ws-hello.mjs');

interface Variant {
  readonly name: string;
  make(server: ArenaServer): BotLauncher;
}

/** Start-up of each variant, `rounds` times in turn; medians in ms. */
async function measure(variants: readonly Variant[], rounds: number): Promise<number[]> {
  const server = await startArenaServer({ authenticate: () => undefined });
  const times: number[][] = variants.map(() => []);
  try {
    for (let round = -1; round < rounds; round++) {
      for (const [i, v] of variants.entries()) {
        const launcher = v.make(server);
        const t0 = performance.now();
        const link = await launcher.connect();
        const ms = performance.now() - t0;
        if (!link.ok) throw new Error(`${v.name}: ${link.reason}`);
        await launcher.dispose();
        if (round >= 0) times[i].push(ms); // round -1 warms caches (and compiles the relay)
      }
    }
  } finally {
    await server.close();
  }
  return times.map((t) => t.sort((a, b) => a - b)[t.length >> 1]);
}

export const bench: BenchSuite = async ({ quick }) => {
  const support = sandboxSupport();
  if (!support.ok) return [{ name: 'sandbox', value: Number.NaN, unit: '', note: describeUnsupported(support) }];
  const folder = mkdtempSync(join(tmpdir(), 'arena-bench-sandbox-'));
  if (process.getuid?.() === 0) chownSync(folder, 65534, 65534);
  const sandbox = (o: { entry?: string; relay?: 'node' } = {}): Confinement =>
    createSandbox({ support, guarded: [ROOT], ...(o.entry ? { code: { root: ROOT, entry: o.entry } } : {}), ...(o.relay ? { relay: o.relay } : {}) });
  const shell = (confine?: Confinement): Variant => ({
    name: 'stdio',
    make: (server) =>
      createProcessLauncher({ name: 'hello', command: '/bin/sh', args: ['-c', `printf '%s\\n' '${HELLO}'; exec cat >/dev/null`], cwd: folder, server, stdio: true, limits: {}, ...(confine ? { confine } : {}) }),
  });
  const ws = (confine?: Confinement): Variant => ({
    name: 'ws',
    make: (server) => createProcessLauncher({ name: 'hello', command: process.execPath, args: [WS_BOT], server, limits: {}, ...(confine ? { confine } : {}) }),
  });
  const rounds = quick ? 5 : 25;
  // An unconfined bot gets the referee's environment, which can cost on its own (NODE_EXTRA_CA_CERTS makes
  // Node read a certificate bundle at start-up): both kinds start with the sandbox's few variables here, so
  // the difference is the sandbox's.
  const saved = process.env;
  process.env = { PATH: saved.PATH ?? '/usr/bin:/bin', HOME: '/tmp' };
  let medians: number[];
  try {
    medians = await measure([shell(), shell(sandbox()), ws(), ws(sandbox({ entry: WS_BOT })), ws(sandbox({ entry: WS_BOT, relay: 'node' }))], rounds);
  } finally {
    process.env = saved;
  }
  const [sh0, sh1, ws0, ws1, ws2] = medians;
  const note = `median of ${rounds} starts, to a handshaken link; the same environment confined or not`;
  return [
    { name: 'bot start, stdio shell bot, unconfined', value: sh0, unit: 'ms', note },
    { name: 'bot start, stdio shell bot, sandboxed', value: sh1, unit: 'ms', note },
    { name: 'sandbox cost per start, stdio', value: sh1 - sh0, unit: 'ms', target: '≤ 20' },
    { name: 'bot start, WebSocket Node bot, unconfined', value: ws0, unit: 'ms', note },
    { name: 'bot start, WebSocket Node bot, sandboxed (compiled relay)', value: ws1, unit: 'ms', note },
    { name: 'sandbox cost per start, WebSocket (compiled relay)', value: ws1 - ws0, unit: 'ms', target: '≤ 20' },
    { name: 'bot start, WebSocket Node bot, sandboxed (Node relay)', value: ws2, unit: 'ms', note: 'the fallback where no C compiler is found' },
  ];
};
