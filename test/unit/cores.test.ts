import { describe, expect, it } from 'vitest';
import { concurrencyWarning } from '../../src/app/launch/cores.ts';

describe('concurrencyWarning', () => {
  it('warns when parallel bots would share cores with each other or the referee', () => {
    // 2 idle cores: one bot at a time fits (the referee has the other core); two do not.
    expect(concurrencyWarning(1, 2, 0)).toBeUndefined();
    expect(concurrencyWarning(2, 2, 0.1)).toMatch(/--concurrency 2 with 2 of 2 cores free .* use --concurrency 1/);
    // 8 cores, 3 busy with other work: 4 bots fit.
    expect(concurrencyWarning(4, 8, 3.2)).toBeUndefined();
    expect(concurrencyWarning(5, 8, 3.2)).toMatch(/with 5 of 8 cores free .* use --concurrency 4/);
    // A saturated machine still allows one job (there is nothing fairer to suggest), and says so for two.
    expect(concurrencyWarning(1, 2, 6)).toBeUndefined();
    expect(concurrencyWarning(2, 2, 6)).toMatch(/0 of 2 cores free/);
  });
});
