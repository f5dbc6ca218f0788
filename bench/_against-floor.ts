/**
 * The referee against its floor (the last rows of the `referee` suite, and the whole of the opt-in
 * `referee-floor` suite, which runs them alone while one works on the referee's per-scramble path): the
 * end-to-end loop (_end-to-end.ts) beside the bare loop of the same design (_floor.ts), in pairs.
 */
import { loadavg } from 'node:os';
import { botCores, dealCores } from '../src/app/launch/cores.ts';
import { affinitySupport, formatCpuList } from '../src/transport/process/cpu-affinity.ts';
import { loopsAsBuilt } from './_as-built.ts';
import type { EndToEnd } from './_end-to-end.ts';
import type { BenchPins } from './_floor.ts';
import type { BenchRow } from './types.ts';

/** Median of a non-empty list. */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/**
 * The referee against its floor: pairs of runs, the bare loop (_floor.ts) and then the referee end to end,
 * each pair within seconds of each other so that both see the same machine. The ratio is the median of the
 * pairs' ratios; on a shared machine each figure alone moves with the load (the note says how much). With
 * `pins`, both loops run as a default one-player match is dealt its cores: the referee on the first core,
 * the bot on the second (app/launch/cores.ts).
 */
export async function againstFloor(count: number, pairs: number, pins?: BenchPins): Promise<BenchRow[]> {
  const floors: number[] = [];
  const ends: number[] = [];
  const ratios: number[] = [];
  let last: EndToEnd | undefined;
  const { floorRate, endToEnd, how: loaded } = await loopsAsBuilt();
  for (let i = 0; i < pairs; i++) {
    const f = await floorRate(count, pins);
    last = await endToEnd(count, undefined, pins);
    floors.push(f);
    ends.push(last.rate);
    ratios.push(last.rate / f);
  }
  const load1 = loadavg()[0];
  const load = `load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`;
  const range = (xs: number[]) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}`;
  const how = pins ? `, pinned (referee ${formatCpuList(pins.referee)}, bot ${formatCpuList(pins.bot)})` : '';
  const code = loaded === 'bundle' ? 'the referee bundled as arena runs it' : 'the referee from source (tsx: slower than as built)';
  return [
    { name: `floor${how}: WebSocket round trip to a Node process + one committed SQLite row, ${count} trips`, value: median(floors), unit: 'trips/s', load: load1, note: `median of ${pairs} (${range(floors)}); ${load}` },
    {
      name: `end-to-end${how} 2x2, instant bot, CPU time metered, ${count} scrambles recorded`,
      value: median(ends),
      unit: 'scrambles/s',
      load: load1,
      note: `median of ${pairs} (${range(ends)}), ${code}, after 200 warm-up results as the floor; last run ${last!.solved}/${last!.results} solved, ${last!.metered}/${last!.results} with CPU time; referee CPU ${Math.round(last!.refereeCpuUs)} µs a scramble`,
    },
    { name: `end-to-end / floor${how} (paired runs)`, value: median(ratios), unit: 'ratio', target: '≥ 0.75', load: load1, note: `pairs ${ratios.map((r) => r.toFixed(2)).join(' ')}` },
  ];
}

/** The cores a default one-player match deals on this machine, or undefined where nothing is pinned. */
export function defaultPins(): BenchPins | undefined {
  const support = affinitySupport();
  if (!support.ok) return undefined;
  const deal = dealCores({ cpus: support.cpus, players: 1, bots: { instant: 1 } });
  return deal.pinned ? { referee: deal.referee, bot: botCores(deal, 0, 'instant'), taskset: support.taskset } : undefined;
}
