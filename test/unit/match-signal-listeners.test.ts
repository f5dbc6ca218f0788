import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { runNewMatch } from '../../src/referee/run-match.ts';
import { answers, config, harness, states } from '../helpers/match-harness.ts';

describe('a long-lived stop signal across matches', () => {
  it('playMatch - leaves no abort listener on the caller\'s signal, so a ladder of many games never warns', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const stop = new AbortController();
      const h = harness({ a: answers, b: answers });
      // More games than EventTarget's default limit of 10 listeners, as a ladder run plays.
      for (let game = 0; game < 12; game++) {
        const run = await h.clock.run(runNewMatch(config(['a', 'b']), states, h.deps({ signal: stop.signal })));
        expect(run.status).toBe('finished');
        expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
      }
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
