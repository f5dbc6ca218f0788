import { describe, expect, it } from 'vitest';
import { configRows } from '../../src/app/records/match-view.ts';
import { configurationSection } from '../../src/web/pages/match.ts';

describe('web configuration view', () => {
  it('configurationSection - one row per setting, spelled as its flag takes it, absent ones marked', () => {
    const config = { bots: ['a', 'b'], spec: { kind: 'hanoi', discs: 5 }, count: 3, seed: '<b>7</b>', timeLimitMs: 30_000, maxMoves: 100, concurrency: 1, memoryLimitBytes: 2 ** 29, warmUp: true };
    const html = configurationSection(config, configRows(config)).text;
    expect(html).toContain('<th><code>--time-limit</code></th><td>30s</td>');
    expect(html).toContain('<th><code>--memory-limit</code></th><td>512m</td>');
    expect(html).toContain('<th><code>--discs</code></th><td>5</td>');
    expect(html).toContain('<tr class="absent"><th><code>--score-by</code></th><td>wall</td>');
    // A seed is the user's text: escaped like everything else on the page.
    expect(html).toContain('&lt;b&gt;7&lt;/b&gt;');
    expect(html).not.toContain('<b>7');
  });

  it('configurationSection - a config that does not validate is shown as its stored JSON, escaped', () => {
    const config = { note: '<script>alert(4)</script>' };
    const html = configurationSection(config, configRows(config)).text;
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('id="configuration"');
  });
});
