/**
 * How a match's cores were dealt (app/launch/cores.ts decides it): stored in the config of a local match
 * when it is created, so its report (the CLI's, --json's, the web page's) says how its bots were pinned.
 */
import { z } from 'zod';

/** The deal: which cores the referee and each parallel player had, or why nothing was pinned. */
export type CoreDeal =
  | {
      readonly pinned: true;
      /** The referee's cores, where the exact oracle works too: every core no player's set holds. */
      readonly referee: readonly number[];
      /** Each parallel player's cores, disjoint; every bot of player i runs on the first of `players[i]`. */
      readonly players: readonly (readonly number[])[];
      /** Per bot the match named: how many of its player's cores it runs on (1 unless it declares threads). */
      readonly bots: Readonly<Record<string, number>>;
    }
  | {
      readonly pinned: false;
      /** Why not, as the report says it after "not pinned": "2 cores for 2 players", "--no-affinity". */
      readonly reason: string;
    };

const cpu = z.number().int().min(0).max(65_535);
const cpuSet = z.array(cpu).min(1).max(4096);

/** The stored form of a {@link CoreDeal}, checked when a config is read back. */
export const coreDealSchema: z.ZodType<CoreDeal> = z.union([
  z.strictObject({
    pinned: z.literal(true),
    referee: z.array(cpu).max(4096),
    players: z.array(cpuSet).min(1).max(4096),
    bots: z.record(z.string().min(1), z.number().int().min(1).max(4096)),
  }),
  z.strictObject({ pinned: z.literal(false), reason: z.string().min(1).max(500) }),
]);
