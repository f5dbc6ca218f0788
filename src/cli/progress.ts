import type { ResultEvent } from '../app/matches.ts';

/**
 * A one-line progress bar on stderr when it is a terminal; silent otherwise (logs and pipes stay clean).
 */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): { update(e: ResultEvent): void; end(): void } {
  let drawn = false;
  return {
    update(e) {
      if (!stream.isTTY) return;
      const width = 24;
      const filled = Math.round((e.done / Math.max(1, e.total)) * width);
      const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
      const last = `#${e.scrambleIndex + 1} ${e.bot}: ${e.verdict}${e.verdict === 'solved' ? ` ${e.moves}` : ''}`;
      const sprt = e.sprt ? `  LLR ${e.sprt.llr.toFixed(2)} (${e.sprt.lower.toFixed(2)}, ${e.sprt.upper.toFixed(2)})${e.sprt.decision ? ` ${e.sprt.decision}` : ''}` : '';
      stream.write(`\r[${bar}] ${e.done}/${e.total}${sprt}  ${last}`.slice(0, (stream.columns || 80) - 1).padEnd((stream.columns || 80) - 1));
      drawn = true;
    },
    end() {
      if (drawn) stream.write('\n');
    },
  };
}
