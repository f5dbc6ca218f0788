/**
 * Queuing a distributed match starts its bots once, on the queuing machine, to read what they declare
 * (app/matches/playable.ts). That start is a contestant's code running: it must be confined exactly as a local
 * match's bots are. A registered bot writes outside its folder as soon as it starts and reports where it
 * ran; the check must leave the outside file unwritten and see the bot in a pid namespace of its own.
 */
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addBot } from '../../src/app/bots/bot-registry.ts';
import type { AppContext } from '../../src/app/context.ts';
import { checkPlayable } from '../../src/app/matches/playable.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { CAN_SANDBOX } from '../helpers/sandbox.ts';
import { ROOT } from './helpers.ts';

const root = process.getuid?.() === 0;
/** Outside /tmp, which the sandbox replaces: the victim is hidden because the sandbox does not show it. */
const SCRATCH = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
const base = mkdtempSync(join(SCRATCH, 'arena-preflight-'));
/** The bots' persistent caches, where a confined bot writes (its folder is not its own to write). */
const CACHES = join(base, 'caches');
process.env.ARENA_BOT_CACHE = CACHES;
afterAll(() => rmSync(base, { recursive: true, force: true }));

/**
 * A stdio bot that, before saying hello, tries to write `victim`, and says hello only from a pid namespace
 * other than the referee's (host-ns.txt in its folder): its folder is a read-only snapshot, so it cannot
 * leave a note there.
 */
const ESCAPER = (victim: string) => `import json, os, sys
try:
    with open(${JSON.stringify(victim)}, "w") as f:
        f.write("written by the bot\\n")
except OSError:
    pass
if os.readlink("/proc/self/ns/pid") == open("host-ns.txt").read():
    sys.exit("started in the referee's pid namespace")
sys.stdout.write(json.dumps({"type": "hello", "protocol": 1, "name": "escaper", "version": "1", "capabilities": [{"kind": "hanoi"}]}) + "\\n")
sys.stdout.flush()
for line in sys.stdin:
    if json.loads(line).get("type") == "bye":
        break
`;

describe.runIf(process.platform === 'linux' && CAN_SANDBOX)('sandbox - the check before queuing a distributed match', () => {
  it('sandbox preflight - a registered bot started to read its declaration runs confined: nothing written outside its folder', async () => {
    const folder = join(base, 'escaper');
    mkdirSync(folder);
    const victim = join(base, 'victim.txt');
    writeFileSync(join(folder, 'bot.py'), ESCAPER(victim));
    writeFileSync(join(folder, 'host-ns.txt'), readlinkSync('/proc/self/ns/pid'));
    if (root) for (const f of ['', ...readdirSync(folder)]) chownSync(join(folder, f), 65534, 65534);
    const ctx: AppContext = { store: createMemoryStore(), dbLocation: join(base, 'arena.db'), projectRoot: ROOT, clock: systemClock };
    const added = await addBot(ctx, { name: 'escaper', cmd: 'python3 bot.py', cwd: folder, stdio: true });
    expect(added.ok, JSON.stringify(added)).toBe(true);
    const config = {
      bots: ['escaper'],
      spec: { kind: 'sliding', rows: 3, cols: 3 },
      count: 2,
      seed: 'preflight',
      timeLimitMs: 10_000,
      maxMoves: 1_000_000,
      concurrency: 1,
    } as unknown as MatchConfig;
    const notices: string[] = [];
    const checked = await checkPlayable(ctx, config, undefined, (t) => notices.push(t));
    // The bot did start and said hello (declining sliding, so the check names it), which it does only in
    // a pid namespace that is not ours.
    expect(`${JSON.stringify(checked)} ${notices.join(' ')}`).toMatch(/escaper.*declin|declin.*escaper/);
    expect(existsSync(victim)).toBe(false);
  }, 60_000);
});
