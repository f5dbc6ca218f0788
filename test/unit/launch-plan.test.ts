import { describe, expect, it } from 'vitest';
import { launchPlanOf } from '../../src/app/launch/launch-plan.ts';
import { playLimitsOf } from '../../src/referee/job-source.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { launchKey, type LaunchOptions } from '../../src/referee/launch-key.ts';
import { DEFAULT_DISK_BUDGET_BYTES } from '../../src/referee/settings/match-settings.ts';
import { cpuBackstopSeconds, DEFAULT_DISK_BYTES } from '../../src/transport/process/bot-limits.ts';

const config = (over: Partial<MatchConfig> = {}): MatchConfig => ({ bots: ['a'], count: 40, seed: 's', timeLimitMs: 3000, maxMoves: 100, concurrency: 1, ...over });

describe('launch plan', () => {
  it('launch plan - derived from a match\'s jobs\' limits: its CPU backstop covers the match\'s scrambles, its memory and disk are the config\'s', () => {
    const plan = launchPlanOf(playLimitsOf(config({ memoryLimitBytes: 512 * 2 ** 20, diskBudgetBytes: 64 * 2 ** 20, unconfined: true, affinity: true })));
    expect(plan).toEqual({
      timeLimitMs: 3000,
      startTimeoutMs: 10_000,
      limits: { memoryBytes: 512 * 2 ** 20, cpuSeconds: cpuBackstopSeconds(3000, 40), diskBytes: 64 * 2 ** 20 },
      unconfined: true,
      affinity: true,
    });
  });

  it('launch plan - a local match\'s bot and a worker\'s get one plan: the worker\'s launch options are the same limits with a player number', () => {
    const limits = playLimitsOf(config({ memoryLimitBytes: 2 ** 30 }));
    const workerOpts: LaunchOptions = { ...limits, player: 3 };
    expect(launchPlanOf(workerOpts)).toEqual(launchPlanOf(limits));
    // …and a player keeps one launcher per plan: a different memory limit or sandbox is a different launcher.
    expect(launchKey('a', { ...limits, player: 3 })).toBe(launchKey('a', limits));
    expect(launchKey('a', { ...limits, memoryLimitBytes: 2 ** 29 })).not.toBe(launchKey('a', limits));
    expect(launchKey('a', { ...limits, unconfined: true })).not.toBe(launchKey('a', limits));
  });

  it('launch plan - the start timeout is the match\'s, capped at two minutes for any time limit (the ladder once lost the cap)', () => {
    expect(launchPlanOf({ timeLimitMs: 86_400_000 }).startTimeoutMs).toBe(120_000);
    expect(launchPlanOf({ timeLimitMs: 500 }).startTimeoutMs).toBe(10_000);
    expect(launchPlanOf({ timeLimitMs: 30_000 }).startTimeoutMs).toBe(60_000);
    expect(launchPlanOf({ timeLimitMs: 500 }, { startTimeoutMs: 300_000 }).startTimeoutMs).toBe(300_000);
  });

  it('launch plan - a config from before the disk budget gets the default budget, the sandbox\'s own fallback', () => {
    expect(launchPlanOf(playLimitsOf(config())).limits.diskBytes).toBe(DEFAULT_DISK_BUDGET_BYTES);
    expect(DEFAULT_DISK_BUDGET_BYTES).toBe(DEFAULT_DISK_BYTES);
    expect(launchPlanOf(playLimitsOf(config())).unconfined).toBe(false);
  });
});
