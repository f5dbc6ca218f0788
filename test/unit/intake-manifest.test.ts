import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkBotName } from '../../src/intake/bot-name.ts';
import { parseManifest } from '../../src/intake/manifest.ts';

const good = { name: 'astar', run: 'python3 bot.py', build: 'gcc -O2 -o helper helper.c', transport: 'stdio' };
const parse = (m: unknown) => parseManifest(JSON.stringify(m));
const reason = (m: unknown) => {
  const r = typeof m === 'string' ? parseManifest(m) : parse(m);
  return r.ok ? 'accepted' : r.reason;
};

describe('intake - the manifest arena-bot.json', () => {
  it('intake - the example manifest is read, with owner/bot names split', () => {
    expect(parse(good)).toEqual({ ok: true, value: { ...good, bot: 'astar', exclude: [] } });
    const owned = parse({ ...good, name: 'alice/astar', transport: 'websocket', exclude: ['*.o', 'build/'] });
    expect(owned).toMatchObject({ ok: true, value: { owner: 'alice', bot: 'astar', transport: 'websocket', exclude: ['*.o', 'build/'] } });
    const noBuild = parse({ name: 'astar', run: './bot', transport: 'stdio' });
    expect(noBuild.ok && !('build' in noBuild.value)).toBe(true);
  });

  it('intake - unknown keys are refused by name', () => {
    expect(reason({ ...good, biuld: 'make' })).toBe('arena-bot.json: unknown key "biuld" (known: name, run, build, transport, exclude, threads)');
    expect(reason({ ...good, a: 1, b: 2 })).toMatch(/unknown keys "a", "b"/);
  });

  it('intake - each field is checked with a one-line reason', () => {
    expect(reason({ ...good, run: undefined })).toBe('arena-bot.json: "run" is required');
    expect(reason({ ...good, run: '   ' })).toBe('arena-bot.json: "run" cannot be empty');
    expect(reason({ ...good, build: 'make\nrm -rf /' })).toBe('arena-bot.json: "build" must be one line');
    expect(reason({ ...good, transport: 'tcp' })).toBe('arena-bot.json: "transport" is "stdio" or "websocket"');
    expect(reason({ ...good, exclude: 'build/' })).toMatch(/^arena-bot.json: "exclude" /);
    expect(reason({ ...good, exclude: [''] })).toBe('arena-bot.json: "exclude.0" a pattern cannot be empty');
    expect(reason({ ...good, name: 'Astar' })).toMatch(/"name": bad bot name "Astar".*did you mean "astar"/);
    expect(reason({ ...good, name: 'a/b/c' })).toMatch(/"name" is "astar" or "owner\/astar"/);
    expect(reason({ ...good, name: '/astar' })).toMatch(/"name": a bot name cannot be empty/);
    expect(reason('{"name": ')).toMatch(/^arena-bot.json is not valid JSON: /);
    expect(reason('[]')).toBe('arena-bot.json must be a JSON object');
    expect(reason({ ...good, threads: 0 })).toBe('arena-bot.json: "threads" must be at least 1');
    expect(reason({ ...good, threads: 2.5 })).toBe('arena-bot.json: "threads" must be a whole number');
    expect(reason({ ...good, threads: 1e9 })).toBe('arena-bot.json: "threads" must be at most 1024');
    expect(parse({ ...good, threads: 4 })).toMatchObject({ ok: true, value: { threads: 4 } });
    expect(reason(JSON.stringify({ ...good, run: 'x'.repeat(70_000) }))).toBe('arena-bot.json is larger than 64 KiB');
  });

  it('intake - property: any canonical name, bare or owned, is accepted as written', () => {
    const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);
    const name = fc.array(word, { minLength: 1, maxLength: 4 }).chain((ws) => fc.constantFrom('-', '_', '.').map((sep) => ws.join(sep)));
    fc.assert(
      fc.property(name, fc.option(name, { nil: undefined }), (bot, owner) => {
        const full = owner ? `${owner}/${bot}` : bot;
        const r = parse({ ...good, name: full });
        return r.ok && r.value.bot === bot && r.value.owner === owner && r.value.name === full;
      }),
    );
  });

  it('intake - property: a manifest is accepted exactly when its name part(s) pass the bot-name rules', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (name) => {
        const parts = name.split('/');
        const expected = parts.length <= 2 && parts.every((p) => checkBotName(p).ok);
        return parse({ ...good, name }).ok === expected;
      }),
    );
  });

  it('intake - property: any extra key is refused and named, whatever else the manifest holds', () => {
    const known = new Set(['name', 'run', 'build', 'transport', 'exclude']);
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !known.has(k) && !/[\s"]/.test(k) && k !== '__proto__'),
        fc.jsonValue(),
        (key, value) => {
          const r = parseManifest(JSON.stringify({ ...good, [key]: value }));
          return !r.ok && r.reason.includes(`unknown key "${key}"`);
        },
      ),
    );
  });

  it('intake - property: every refusal is one line, whatever the input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify(v))), (text) => {
        const r = parseManifest(text);
        return r.ok || (!r.reason.includes('\n') && r.reason.length > 0);
      }),
    );
  });
});
