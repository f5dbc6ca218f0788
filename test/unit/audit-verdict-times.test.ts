import { describe, expect, it } from 'vitest';
import { lateSlackMs, verdictTimeProblem } from '../../src/app/audit/verdict-times.ts';

// A verdict against its own stored time and the match's limit (src/app/audit/verdict-times.ts), the check
// the audit makes without the key.

describe('audit verdict times', () => {
  it('verdict times - solved or invalid above the limit (past the slack) is flagged; at or near it is not', () => {
    expect(lateSlackMs(10_000)).toBe(1250);
    expect(verdictTimeProblem({ verdict: 'solved', wallMs: 9_999, moveCount: 30 }, 10_000)).toBeUndefined();
    expect(verdictTimeProblem({ verdict: 'solved', wallMs: 11_250, moveCount: 0 }, 10_000)).toBeUndefined();
    expect(verdictTimeProblem({ verdict: 'solved', wallMs: 11_251, moveCount: 0 }, 10_000)).toMatch(/^solved in 11251 ms, above the match's time limit of 10000 ms/);
    expect(verdictTimeProblem({ verdict: 'invalid', wallMs: 45_000, moveCount: 3 }, 10_000)).toMatch(/^invalid in 45000 ms/);
    expect(verdictTimeProblem({ verdict: 'crash', wallMs: 45_000, moveCount: 0 }, 10_000)).toBeUndefined();
    // A long answer is validated before the clock stops: 1 µs a move more (16.7 M moves: 16.7 s).
    expect(verdictTimeProblem({ verdict: 'solved', wallMs: 27_000, moveCount: 16_777_215 }, 10_000)).toBeUndefined();
    expect(verdictTimeProblem({ verdict: 'solved', wallMs: 29_000, moveCount: 16_777_215 }, 10_000)).toMatch(/^solved in 29000 ms/);
  });

  it('verdict times - a timeout well below the limit is flagged, unless the CPU-time backstop or a warm-up gave it', () => {
    expect(verdictTimeProblem({ verdict: 'timeout', moveCount: 0, wallMs: 10_003, error: 'no final answer within 10000 ms' }, 10_000)).toBeUndefined();
    expect(verdictTimeProblem({ verdict: 'timeout', moveCount: 0, wallMs: 8_800 }, 10_000)).toBeUndefined();
    expect(verdictTimeProblem({ verdict: 'timeout', moveCount: 0, wallMs: 120, error: 'no final answer within 10000 ms' }, 10_000)).toMatch(/^a timeout after 120 ms, below the match's time limit of 10000 ms/);
    expect(verdictTimeProblem({ verdict: 'timeout', moveCount: 0, wallMs: 120, error: 'bot used up its CPU-time limit (12 s)' }, 10_000)).toBeUndefined();
    expect(verdictTimeProblem({ verdict: 'timeout', moveCount: 0, wallMs: 120, error: 'while preparing for sliding 4x4: not ready within 10000 ms of prepare' }, 10_000)).toBeUndefined();
  });

  it('verdict times - without a readable limit, or with a non-finite time, nothing is said', () => {
    expect(verdictTimeProblem({ verdict: 'solved', wallMs: 1e9, moveCount: 1 }, undefined)).toBeUndefined();
    expect(verdictTimeProblem({ verdict: 'solved', wallMs: Number.NaN, moveCount: 1 }, 10)).toBeUndefined();
  });
});
