import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/app/context.ts';
import { addParticipant, listParticipants, participantOfToken, revokeParticipant } from '../../src/app/participants/participants.ts';
import { endSession, sessionParticipant, startSession } from '../../src/app/participants/sessions.ts';
import { looksLikeToken, sameHash, secretHash } from '../../src/app/participants/tokens.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { SignInLimiter } from '../../src/web/sign-in-limit.ts';

const context = (): AppContext => ({ store: createMemoryStore(), dbLocation: 'memory', projectRoot: '.', clock: systemClock });

describe('participants', () => {
  it('addParticipant - a token of 32 random bytes behind arena_, stored only as its sha256', async () => {
    const ctx = context();
    const a = await addParticipant(ctx, { name: 'alice', admin: true });
    const b = await addParticipant(ctx, { name: 'bob', admin: false });
    if (!a.ok || !b.ok) throw new Error('not added');
    expect(a.value.token).toMatch(/^arena_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.value.token.slice(6), 'base64url')).toHaveLength(32);
    expect(a.value.token).not.toBe(b.value.token);
    const stored = await ctx.store.participants().byTokenHash(secretHash(a.value.token));
    expect(stored?.tokenHash).toBe(secretHash(a.value.token));
    expect(JSON.stringify(await listParticipants(ctx))).not.toContain(a.value.token.slice(6));
  });

  it('addParticipant - names follow the bot-name rules: <script>, upper case, a taken name or a look-alike refused', async () => {
    const ctx = context();
    await addParticipant(ctx, { name: 'alice', admin: false });
    for (const name of ['<script>alert(1)</script>', 'Alice', 'alice', 'a1ice', '', 'x'.repeat(65)]) {
      const r = await addParticipant(ctx, { name, admin: false });
      expect(r.ok, name).toBe(false);
    }
    expect((await listParticipants(ctx)).map((p) => p.name)).toEqual(['alice']);
  });

  it('participantOfToken - the right token finds its participant; wrong, malformed or revoked ones are refused', async () => {
    const ctx = context();
    const a = await addParticipant(ctx, { name: 'alice', admin: false });
    if (!a.ok) throw new Error(a.reason);
    expect(await participantOfToken(ctx, a.value.token)).toMatchObject({ ok: true, value: { name: 'alice' } });
    const wrong = `arena_${'A'.repeat(43)}`;
    expect(looksLikeToken(wrong)).toBe(true);
    expect((await participantOfToken(ctx, wrong)).ok).toBe(false);
    expect((await participantOfToken(ctx, 'not a token')).ok).toBe(false);
    expect((await revokeParticipant(ctx, 'alice')).ok).toBe(true);
    expect(await participantOfToken(ctx, a.value.token)).toMatchObject({ ok: false, code: 'bad-token' });
    expect((await revokeParticipant(ctx, 'alice')).ok).toBe(false);
    expect((await revokeParticipant(ctx, 'nobody')).ok).toBe(false);
  });

  it('sessions - a session lasts 7 days, ends at sign-out and at revocation', async () => {
    const ctx = context();
    const a = await addParticipant(ctx, { name: 'alice', admin: false });
    if (!a.ok) throw new Error(a.reason);
    const now = Date.parse('2026-03-01T00:00:00Z');
    const s = await startSession(ctx, a.value.token, now);
    if (!s.ok) throw new Error(s.reason);
    expect((await sessionParticipant(ctx, s.value.id, now + 1000))?.name).toBe('alice');
    expect(await sessionParticipant(ctx, s.value.id, now + 7 * 24 * 3600 * 1000)).toBeUndefined();
    await endSession(ctx, s.value.id);
    expect(await sessionParticipant(ctx, s.value.id, now + 1000)).toBeUndefined();
    const t = await startSession(ctx, a.value.token, now);
    if (!t.ok) throw new Error(t.reason);
    await revokeParticipant(ctx, 'alice');
    expect(await sessionParticipant(ctx, t.value.id, now + 1000)).toBeUndefined();
    expect((await startSession(ctx, a.value.token, now)).ok).toBe(false);
  });

  it('sameHash - equal hashes only, whatever their lengths', () => {
    expect(sameHash('ab', 'ab')).toBe(true);
    expect(sameHash('ab', 'ac')).toBe(false);
    expect(sameHash('ab', 'abc')).toBe(false);
  });

  it('SignInLimiter - the 6th failure within a minute waits until the oldest leaves the window', () => {
    let t = 0;
    const limit = new SignInLimiter(5, 60_000, () => t);
    for (let i = 0; i < 5; i++) {
      expect(limit.retryAfter('1.2.3.4')).toBeUndefined();
      limit.fail('1.2.3.4');
      t += 1000;
    }
    expect(limit.retryAfter('1.2.3.4')).toBe(55);
    expect(limit.retryAfter('5.6.7.8')).toBeUndefined();
    t = 60_001;
    expect(limit.retryAfter('1.2.3.4')).toBeUndefined();
  });
});
