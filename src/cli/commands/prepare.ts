import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { prepareAssets, type PreparedAsset, type PrepareOutcome, type PrepareProgress } from '../../app/bots/prepare-assets.ts';
import { sizeText } from '../../app/bots/bot-assets.ts';
import { must } from '../errors.ts';
import { intFlag } from '../parse-flags.ts';
import { withInterrupt } from '../interrupt.ts';
import { duration } from '../progress.ts';
import { terminalText } from '../terminal-text.ts';

interface PrepareFlags {
  all?: boolean;
  json?: boolean;
  threads?: string;
}

/**
 * The live line of a build on a terminal: a bar of the table entries known over all the tables being built,
 * and an ETA from this run's own pace (the first seconds, before there is a pace, show none).
 */
function progressLine(stream: NodeJS.WriteStream, now: () => number = Date.now): { draw(p: PrepareProgress): void; clear(): void } {
  const t0 = now();
  let drawn = false;
  return {
    draw(p) {
      if (!stream.isTTY || p.total === 0) return;
      const width = 20;
      const share = p.done / p.total;
      const bar = '#'.repeat(Math.round(share * width)).padEnd(width, '.');
      const spent = now() - t0;
      const eta = share > 0.01 && spent > 2000 ? ` · ETA ${duration((spent / share) * (1 - share))}` : '';
      const cols = (stream.columns || 80) - 1;
      stream.write(`\r${terminalText(`preparing [${bar}] ${(share * 100).toFixed(1)}%${eta}`).slice(0, cols).padEnd(cols)}`);
      drawn = true;
    },
    clear() {
      if (drawn) stream.write(`\r${' '.repeat((stream.columns || 80) - 1)}\r`);
      drawn = false;
    },
  };
}

/** One line per asset: ready (what was built now, what was kept), or what is still missing and why. */
function summary(o: PrepareOutcome): string {
  const lines = o.assets.map((a: PreparedAsset) => {
    const head = `${a.bot}: ${a.what} (${a.id}, ${sizeText(a.bytes)})`;
    if (a.status === 'ready') return `${head}: ready${a.built.length ? `, ${a.built.length} table${a.built.length === 1 ? '' : 's'} built now` : ''}${a.kept.length ? `, ${a.kept.length} kept` : ''}`;
    const left = `${a.missing.length} of ${a.missing.length + a.built.length + a.kept.length} tables not built`;
    return a.status === 'failed' ? `${head}: failed, ${left}: ${a.reason}` : `${head}: interrupted, ${left}; run the same command again to build only those`;
  });
  for (const b of o.nothingToDo) lines.push(`${b}: declares nothing to prepare`);
  lines.push(`asset store: ${o.dir} (${o.seconds.toFixed(1)} s)`);
  return lines.join('\n') + '\n';
}

/** Registers `arena prepare`; exit 0 when every asset is ready, 130 interrupted, 1 when a build failed. */
export function registerPrepare(program: Command, print: (text: string) => void, setExit: (code: number) => void, info: (text: string) => void): void {
  program
    .command('prepare')
    .description(summaryOf('prepare'))
    .argument('[bots...]', 'built-in bots whose assets to build')
    .option('--all', 'every built-in bot that declares assets')
    .option('--threads <n>', 'tables built at once, one core each (default: every core)')
    .option('--json', 'print {"dir","assets":[{"bot","id","what","bytes","status","built","kept","missing","reason"?}],"nothingToDo","seconds"}')
    .action(async (bots: string[], f: PrepareFlags) => {
      const threads = intFlag('threads', f.threads, { min: 1, max: 256 }) ?? availableParallelism();
      const bar = progressLine(process.stderr);
      const outcome = must(
        await withInterrupt(
          () => (bar.clear(), info('stopping: finished tables are kept; the next arena prepare builds the rest (Ctrl-C again to force)')),
          (signal) =>
            prepareAssets({
              bots,
              all: Boolean(f.all),
              threads,
              signal,
              onProgress: (p) => bar.draw(p),
              onPart: ({ part, kept, ms }) => {
                bar.clear();
                info(kept ? `kept ${part.file} (intact)` : `built ${part.file} (${sizeText(part.bytes)}) in ${(ms / 1000).toFixed(1)} s`);
              },
            }),
        ),
      );
      bar.clear();
      print(f.json ? JSON.stringify(outcome) + '\n' : summary(outcome));
      setExit(outcome.assets.some((a) => a.status === 'failed') ? 1 : outcome.assets.some((a) => a.status === 'interrupted') ? 130 : 0);
    });
}
