/**
 * Where `arena submit` sends and with what token: one spelling of a server URL, the order of the token's
 * sources, and a stored token kept to the server it was stored for.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { credentialsPath, readCredentials, resolveTarget, serverUrl, writeCredentials } from '../../src/app/submissions/credentials.ts';

const dir = mkdtempSync(join(tmpdir(), 'arena-credentials-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('submit credentials', () => {
  it('serverUrl - one spelling per server; only http(s), no user, query or fragment', () => {
    expect(serverUrl('https://Arena.Example.org/')).toEqual({ ok: true, value: 'https://arena.example.org' });
    expect(serverUrl('http://127.0.0.1:8080/arena//')).toEqual({ ok: true, value: 'http://127.0.0.1:8080/arena' });
    for (const bad of ['arena.example.org', 'ftp://x', 'https://u:p@x', 'https://x/?a=1', 'https://x/#f']) expect(serverUrl(bad).ok, bad).toBe(false);
  });

  it('credentialsPath - XDG_CONFIG_HOME when absolute, else ~/.config', () => {
    expect(credentialsPath({ XDG_CONFIG_HOME: '/c', HOME: '/h' })).toBe('/c/arena/credentials.json');
    expect(credentialsPath({ XDG_CONFIG_HOME: 'relative', HOME: '/h' })).toBe('/h/.config/arena/credentials.json');
  });

  it('resolveTarget - --token, then ARENA_TOKEN, then the stored login for its own server only', () => {
    const env = { XDG_CONFIG_HOME: join(dir, 'cfg'), HOME: dir };
    expect(writeCredentials(credentialsPath(env), { server: 'https://a.example', token: 'stored' }).ok).toBe(true);
    expect(resolveTarget({ env })).toEqual({ ok: true, value: { server: 'https://a.example', token: 'stored' } });
    expect(resolveTarget({ server: 'https://a.example/', env })).toEqual({ ok: true, value: { server: 'https://a.example', token: 'stored' } });
    expect(resolveTarget({ server: 'https://a.example', env: { ...env, ARENA_TOKEN: 'env' } })).toMatchObject({ value: { token: 'env' } });
    expect(resolveTarget({ server: 'https://a.example', token: 'flag', env: { ...env, ARENA_TOKEN: 'env' } })).toMatchObject({ value: { token: 'flag' } });
    const elsewhere = resolveTarget({ server: 'https://b.example', env });
    expect(elsewhere).toMatchObject({ ok: false, code: 'usage' });
    expect(resolveTarget({ env: { HOME: join(dir, 'nobody') } })).toMatchObject({ ok: false, code: 'usage' });
  });

  it('readCredentials - none is undefined; a malformed file is refused with what to do', () => {
    expect(readCredentials(join(dir, 'none.json'))).toEqual({ ok: true, value: undefined });
    mkdirSync(join(dir, 'bad'));
    writeFileSync(join(dir, 'bad', 'c.json'), '{"server": 1}');
    const r = readCredentials(join(dir, 'bad', 'c.json'));
    expect(!r.ok && r.reason).toMatch(/run arena login again/);
  });
});
