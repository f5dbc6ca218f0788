/**
 * Who may read a bot's stderr (app/records/bot-stderr.ts): its owner (the name before '/') and admins; the
 * shell holder always; nobody signed in only where the server is open and has no participants at all.
 */
import { describe, expect, it } from 'vitest';
import { botOwner } from '../../src/app/bots/bot-owner.ts';
import { botStderr, readableStderr, type StderrViewer } from '../../src/app/records/bot-stderr.ts';
import { capText } from '../../src/core/capped-text.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import type { ParticipantRecord } from '../../src/store/participant-types.ts';
import { scrambleInputs } from '../helpers/store-contract.ts';

const person = (name: string, admin = false): StderrViewer => ({ kind: 'participant', participant: { name, admin, createdAt: '2026-01-01T00:00:00.000Z' } satisfies ParticipantRecord });

async function setUp(withParticipants: boolean) {
  const store = createMemoryStore();
  const m = await store.createMatch({ config: {}, seed: 's', generatorVersion: 'g', bots: ['alice/astar', 'bob/bfs', 'dijkstra'], scrambles: scrambleInputs().slice(0, 1) });
  for (const bot of ['alice/astar', 'bob/bfs', 'dijkstra']) await store.stderrs().append(m.id, bot, capText(`${bot} says <hi>\n`));
  if (withParticipants) await store.participants().add({ name: 'alice', admin: false, tokenHash: 'a'.repeat(64) });
  return { ctx: { store }, id: m.id };
}

describe('bot stderr', () => {
  it('botOwner - the part before the first /, none without one', () => {
    expect(botOwner('alice/astar')).toBe('alice');
    expect(botOwner('dijkstra')).toBeUndefined();
    expect(botOwner('/odd')).toBeUndefined();
  });

  it('botStderr - the owner and an admin read it; another participant is forbidden; nobody signed in is unauthenticated', async () => {
    const { ctx, id } = await setUp(true);
    const own = await botStderr(ctx, person('alice'), id, 'alice/astar');
    expect(own.ok && own.value.text).toBe('alice/astar says <hi>\n');
    expect((await botStderr(ctx, person('root', true), id, 'alice/astar')).ok).toBe(true);
    const other = await botStderr(ctx, person('bob'), id, 'alice/astar');
    expect(!other.ok && [other.code, other.reason]).toEqual(['forbidden', 'only alice or an admin may read the stderr of alice/astar']);
    for (const privateServer of [false, true]) {
      const none = await botStderr(ctx, { kind: 'anonymous', privateServer }, id, 'alice/astar');
      expect(!none.ok && none.code).toBe('unauthenticated');
    }
  });

  it('botStderr - a bot without an owner is the admins\' (and the shell\'s); a participant cannot read it', async () => {
    const { ctx, id } = await setUp(true);
    const alice = await botStderr(ctx, person('alice'), id, 'dijkstra');
    expect(!alice.ok && alice.reason).toBe('only an admin may read the stderr of dijkstra');
    expect((await botStderr(ctx, person('root', true), id, 'dijkstra')).ok).toBe(true);
    expect((await botStderr(ctx, { kind: 'shell' }, id, 'dijkstra')).ok).toBe(true);
  });

  it('botStderr - an open server without participants is its local user\'s; a private one is not', async () => {
    const { ctx, id } = await setUp(false);
    expect((await botStderr(ctx, { kind: 'anonymous', privateServer: false }, id, 'dijkstra')).ok).toBe(true);
    expect((await botStderr(ctx, { kind: 'anonymous', privateServer: true }, id, 'dijkstra')).ok).toBe(false);
  });

  it('botStderr - an unknown match or a bot not in it is not found; a bot that wrote nothing has empty text', async () => {
    const { ctx, id } = await setUp(true);
    const shell: StderrViewer = { kind: 'shell' };
    const noMatch = await botStderr(ctx, shell, id + 1, 'dijkstra');
    expect(!noMatch.ok && noMatch.code).toBe('no-match');
    const noBot = await botStderr(ctx, shell, id, 'carol/x');
    expect(!noBot.ok && noBot.code).toBe('no-bot');
    const m = await ctx.store.createMatch({ config: {}, seed: 's', generatorVersion: 'g', bots: ['quiet'], scrambles: scrambleInputs().slice(0, 1) });
    const quiet = await botStderr(ctx, shell, m.id, 'quiet');
    expect(quiet.ok && quiet.value).toEqual({ matchId: m.id, bot: 'quiet', head: '', tail: '', cutBytes: 0, text: '' });
  });

  it('readableStderr - only the bots the viewer may read', async () => {
    const { ctx, id } = await setUp(true);
    expect((await readableStderr(ctx, person('alice'), id)).map((v) => v.bot)).toEqual(['alice/astar']);
    expect((await readableStderr(ctx, person('root', true), id)).map((v) => v.bot)).toEqual(['alice/astar', 'bob/bfs', 'dijkstra']);
    expect(await readableStderr(ctx, { kind: 'anonymous', privateServer: false }, id)).toEqual([]);
  });
});
