import { describe, expect, it } from 'vitest';
import { botCores, concurrencyWarning, coreDealText, dealCores } from '../../src/app/launch/cores.ts';
import { coreDealSchema, type CoreDeal } from '../../src/referee/settings/core-deal.ts';

const cpus = (n: number) => Array.from({ length: n }, (_, i) => i);
type Pinned = CoreDeal & { readonly pinned: true };

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

describe('dealCores', () => {
  it('dealCores - nothing pinned where the machine has no more cores than players, and the deal says why', () => {
    expect(dealCores({ cpus: cpus(1), players: 1, bots: { a: 1 } })).toEqual({ pinned: false, reason: '1 core for 1 player' });
    expect(dealCores({ cpus: cpus(2), players: 2, bots: { a: 1, b: 1 } })).toEqual({ pinned: false, reason: '2 cores for 2 players' });
    expect(dealCores({ cpus: cpus(2), players: 3 })).toEqual({ pinned: false, reason: '2 cores for 3 players' });
    expect(coreDealText(dealCores({ cpus: cpus(2), players: 2 }))).toBe('not pinned: 2 cores for 2 players');
  });

  it('dealCores - one player: the referee keeps the first core, every bot its own declared cores of the rest', () => {
    expect(dealCores({ cpus: cpus(2), players: 1, bots: { 'ida-star': 1, constructive: 1 } })).toEqual({
      pinned: true,
      referee: [0],
      players: [[1]],
      bots: { 'ida-star': 1, constructive: 1 },
    });
    const eight = dealCores({ cpus: cpus(8), players: 1, bots: { 'ida-star': 1, constructive: 1 } });
    expect(coreDealText(eight)).toBe('referee 0,2-7; ida-star 1; constructive 1');
    // A bot declaring 4 threads gets 4 cores; its rival, declaring none, the first of them.
    const threaded = dealCores({ cpus: cpus(8), players: 1, bots: { 'pdb-beam': 4, 'ida-star': 1 } }) as Pinned;
    expect(threaded.players).toEqual([[1, 2, 3, 4]]);
    expect(botCores(threaded, 0, 'pdb-beam')).toEqual([1, 2, 3, 4]);
    expect(botCores(threaded, 0, 'ida-star')).toEqual([1]);
    expect(coreDealText(threaded)).toBe('referee 0,5-7; pdb-beam 1-4; ida-star 1');
    // Wanting more than there is: as many as are free.
    const short = dealCores({ cpus: cpus(3), players: 1, bots: { big: 8 } }) as Pinned;
    expect(short).toEqual({ pinned: true, referee: [0], players: [[1, 2]], bots: { big: 2 } });
  });

  it('dealCores - two players get disjoint sets, threads when there are enough of them, else an equal share', () => {
    expect(coreDealText(dealCores({ cpus: cpus(3), players: 2, bots: { a: 1, b: 1 } }))).toBe('referee 0; player 1: 1; player 2: 2');
    expect(coreDealText(dealCores({ cpus: cpus(4), players: 2, bots: { a: 1, b: 1 } }))).toBe('referee 0,3; player 1: 1; player 2: 2');
    const eight = dealCores({ cpus: cpus(8), players: 2, bots: { a: 3, b: 1 } }) as Pinned;
    expect(eight.players).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(eight.referee).toEqual([0, 7]);
    expect(botCores(eight, 1, 'a')).toEqual([4, 5, 6]);
    expect(botCores(eight, 1, 'b')).toEqual([4]);
    expect(coreDealText(eight)).toBe("referee 0,7; player 1: 1-3; player 2: 4-6 (of its player's: a 3 cores, b 1 core)");
    // 4 threads each do not fit twice in 7: each player gets 3.
    expect((dealCores({ cpus: cpus(8), players: 2, bots: { a: 4 } }) as Pinned).players).toEqual([[1, 2, 3], [4, 5, 6]]);
  });

  it('dealCores - over 1, 2, 3, 4 and 8 cores × 1 or 2 players × 1 to 4 threads: pinned exactly when cores > players, sets disjoint, nobody on the referee core', () => {
    for (const n of [1, 2, 3, 4, 8]) {
      for (const players of [1, 2]) {
        for (const threads of [1, 2, 3, 4]) {
          const all = cpus(n).map((c) => c + 16); // not numbered from 0: the machine's own CPU numbers
          const deal = dealCores({ cpus: all, players, bots: { t: threads, one: 1 } });
          const what = `${n} cores, ${players} players, ${threads} threads`;
          expect(deal.pinned, what).toBe(n > players);
          expect(coreDealSchema.safeParse(deal).success, what).toBe(true);
          if (!deal.pinned) continue;
          const used = deal.players.flat();
          expect(new Set(used).size, what).toBe(used.length);
          expect(deal.referee, what).toContain(all[0]);
          expect([...deal.referee, ...used].sort((a, b) => a - b), what).toEqual(all);
          const size = Math.min(threads, Math.floor((n - 1) / players));
          for (let p = 0; p < players; p++) {
            expect(deal.players[p], what).toHaveLength(size);
            expect(botCores(deal, p, 't'), what).toHaveLength(size);
            expect(botCores(deal, p, 'one'), what).toEqual([deal.players[p]![0]]);
          }
        }
      }
    }
  });

  it('dealCores - a worker that does not know its bots deals equal shares, and each bot takes what it declares of its own', () => {
    const deal = dealCores({ cpus: cpus(8), players: 3 }) as Pinned;
    expect(deal.players).toEqual([[1, 2], [3, 4], [5, 6]]);
    expect(deal.referee).toEqual([0, 7]);
    expect(botCores(deal, 2, 'unknown')).toEqual([5]);
    expect(botCores(deal, 2, 'unknown', 2)).toEqual([5, 6]);
    expect(botCores(deal, 2, 'unknown', 9)).toEqual([5, 6]);
  });

  it('coreDealSchema - the stored deal is checked when read back', () => {
    expect(coreDealSchema.safeParse({ pinned: false, reason: '--no-affinity' }).success).toBe(true);
    expect(coreDealSchema.safeParse({ pinned: true, referee: [0], players: [[]], bots: {} }).success).toBe(false);
    expect(coreDealSchema.safeParse({ pinned: true, referee: [0], players: [[1]], bots: { a: 0 } }).success).toBe(false);
    expect(coreDealSchema.safeParse({ pinned: false }).success).toBe(false);
  });
});
