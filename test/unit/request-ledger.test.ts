import { describe, expect, it } from 'vitest';
import type { BotMessage } from '../../src/protocol/messages.ts';
import { RequestLedger } from '../../src/protocol/request-ledger.ts';

const solve = (id: string) => ({ type: 'solve' as const, id, puzzle: { kind: 'hanoi' as const, pegs: 3 as const, start: 'A', goal: 'C' }, timeLimitMs: 1, maxMoves: 1 });
const chunk = (id: string, final = false): BotMessage => ({ type: 'moves', id, moves: 'AC', final });

describe('RequestLedger', () => {
  it('delivers the chunks of an open request and closes it with the final one', () => {
    const l = new RequestLedger();
    l.noteSent(solve('a'));
    expect(l.outstanding).toBe(1);
    expect(l.admit(chunk('a'))).toEqual({ action: 'deliver' });
    expect(l.admit(chunk('a', true))).toEqual({ action: 'deliver' });
    expect(l.outstanding).toBe(0);
    // A duplicate final, or moves after it: the request is answered, so this is a violation.
    expect(l.admit(chunk('a', true)).action).toBe('violation');
  });

  it('closes a request with give-up or unsupported', () => {
    for (const type of ['give-up', 'unsupported'] as const) {
      const l = new RequestLedger();
      l.noteSent(solve('a'));
      expect(l.admit({ type, id: 'a' })).toEqual({ action: 'deliver' });
      expect(l.admit({ type, id: 'a' }).action).toBe('violation');
    }
  });

  it('drops late answers to a cancelled request, even after newer requests', () => {
    const l = new RequestLedger();
    l.noteSent(solve('a'));
    l.noteSent({ type: 'cancel', id: 'a' });
    l.noteSent(solve('b'));
    expect(l.admit(chunk('a', true))).toEqual({ action: 'drop' });
    expect(l.admit(chunk('b', true))).toEqual({ action: 'deliver' });
    expect(l.admit(chunk('a'))).toEqual({ action: 'drop' });
  });

  it('refuses ids never sent and a second hello', () => {
    const l = new RequestLedger();
    const r = l.admit({ type: 'give-up', id: 'guess' });
    expect(r).toEqual({ action: 'violation', reason: 'give-up for request id "guess", which is not open (never sent, or already answered)' });
    expect(l.admit({ type: 'hello', protocol: 1, name: 'x', version: '', capabilities: [] })).toEqual({
      action: 'violation',
      reason: 'unexpected hello after the handshake',
    });
  });

  it('remembers the last 1024 cancelled ids, not every one of a long match', () => {
    const l = new RequestLedger();
    for (let i = 0; i < 1100; i++) {
      l.noteSent(solve(`r${i}`));
      l.noteSent({ type: 'cancel', id: `r${i}` });
    }
    expect(l.admit(chunk('r1099')).action).toBe('drop');
    expect(l.admit(chunk('r76')).action).toBe('drop');
    expect(l.admit(chunk('r75')).action).toBe('violation');
  });
});
