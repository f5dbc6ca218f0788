import { createRng } from '../core/rng.ts';
import type { PuzzleState } from '../core/types.ts';
import type { BotLauncher, BotLink, Clock } from '../protocol/link.ts';
import { sizeBoundText, sizeGap } from '../protocol/capability-size.ts';
import { getPuzzle } from '../puzzles/index.ts';
import { newRequestId, solveOne } from './solve-one.ts';
import { PREPARE_TIME_LIMIT_MS, prepareOne } from './warm-up.ts';

/** One line of a compliance run. */
export interface CheckLine {
  readonly ok: boolean;
  readonly what: string;
  readonly detail: string;
}

/**
 * A compliance run for one bot: handshake, a few tiny scrambles of each declared kind and its fixed
 * instances (each kind's Puzzle.compliance, validated like a match), and a request cancelled right after it
 * is sent, after which the bot must still answer. A bot that declared the warm-up gets a `prepare` before
 * its first scramble of each class on each connection, as in a match, and must answer `ready`. Says
 * plainly what is wrong; never throws for anything the bot does.
 */
export async function runCompliance(launcher: BotLauncher, clock: Clock, timeLimitMs = 10_000): Promise<CheckLine[]> {
  const lines: CheckLine[] = [];
  const got = await launcher.connect();
  if (!got.ok) return [{ ok: false, what: 'handshake', detail: got.reason }];
  let link = got.value;
  try {
    const h = link.hello;
    const kinds = h.capabilities.map((c) => `${c.kind}${sizeBoundText(c)}${c.prepare ? ' (with prepare)' : ''}`);
    lines.push({ ok: h.capabilities.length > 0, what: 'handshake', detail: `${h.name} ${h.version}; declares ${kinds.join(', ') || 'no puzzle kinds'}` });
    const rng = createRng('bot-check');
    let prepared = new Set<string>();
    let asked = 0;
    for (const cap of h.capabilities) {
      const found = getPuzzle(cap.kind);
      if (!found.ok) continue;
      const puzzle = found.value;
      const states: PuzzleState[] = [...puzzle.compliance.fixed];
      for (const spec of puzzle.compliance.specs) {
        const norm = puzzle.normalizeSpec(spec);
        if (norm.ok) states.push(puzzle.scramble(norm.value, rng));
      }
      for (const state of states) {
        if (sizeGap(cap, state) !== undefined) continue;
        const puzzleClass = puzzle.className(state);
        if (cap.prepare && !prepared.has(puzzleClass)) {
          prepared.add(puzzleClass);
          const t0 = clock.now();
          const warm = await prepareOne(link, { requestId: newRequestId(), kind: cap.kind, puzzleClass, timeLimitMs: PREPARE_TIME_LIMIT_MS }, clock);
          const ms = Math.round(clock.now() - t0);
          lines.push(warm ? { ok: false, what: `prepare ${puzzleClass}`, detail: `${warm.verdict}: ${warm.error}` } : { ok: true, what: `prepare ${puzzleClass}`, detail: `ready in ${ms} ms` });
          if (warm?.linkBroken) {
            const again = await launcher.connect();
            if (!again.ok) return [...lines, { ok: false, what: 'restart', detail: again.reason }];
            link = again.value;
            prepared = new Set();
          }
        }
        asked++;
        const out = await solveOne(link, { state, timeLimitMs, maxMoves: 10_000_000 }, clock);
        if (!out) break;
        const what = `${puzzle.className(state)} scramble`;
        const b = puzzle.bound(state);
        if (out.verdict === 'unsupported') {
          // Declining an instance is the bot's right (e.g. the iterative Hanoi method takes towers only).
          lines.push({ ok: true, what, detail: `declined: ${out.error ?? ''}` });
        } else if (out.verdict === 'solved') {
          const best = b.optimal !== undefined ? `optimum ${b.optimal}` : `lower bound ${b.lowerBound}`;
          lines.push({ ok: true, what, detail: `solved in ${out.moveCount} moves (${best}), ${Math.round(out.wallMs)} ms` });
        } else {
          const at = out.errorIndex !== undefined ? ` at move ${out.errorIndex}` : '';
          lines.push({ ok: false, what, detail: `${out.verdict}${at}: ${out.error ?? ''}` });
        }
        if (out.linkBroken) {
          const again = await launcher.connect();
          if (!again.ok) return [...lines, { ok: false, what: 'restart', detail: again.reason }];
          link = again.value;
          prepared = new Set(); // a new connection is prepared again
        }
      }
    }
    if (asked > 0 && lines.slice(1).filter((l) => !l.what.startsWith('prepare')).every((l) => l.detail.startsWith('declined'))) {
      lines.push({ ok: false, what: 'coverage', detail: 'the bot declined every scramble of the kinds it declares' });
    }
    lines.push(await checkCancel(link, clock, timeLimitMs));
  } finally {
    await launcher.dispose();
  }
  return lines;
}

/** Sends a solve, cancels it at once, then expects a normal answer to a fresh tiny request. */
async function checkCancel(link: BotLink, clock: Clock, timeLimitMs: number): Promise<CheckLine> {
  const cap = link.hello.capabilities[0];
  const found = getPuzzle(cap?.kind);
  const tiny = found.ok ? found.value.compliance.specs[0] : undefined;
  if (!found.ok || !tiny) return { ok: false, what: 'cancel', detail: 'no declared kind to test with' };
  const puzzle = found.value;
  const spec = puzzle.normalizeSpec(tiny);
  if (!spec.ok) return { ok: false, what: 'cancel', detail: spec.reason };
  const state = puzzle.scramble(spec.value, createRng('bot-check-cancel'));
  const id = newRequestId();
  link.send({ type: 'solve', id, puzzle: state, timeLimitMs, maxMoves: 10_000_000 });
  link.send({ type: 'cancel', id });
  const out = await solveOne(link, { state, timeLimitMs, maxMoves: 10_000_000 }, clock);
  if (out?.verdict === 'solved' || out?.verdict === 'unsupported') {
    return { ok: true, what: 'cancel', detail: `a cancelled request did not disturb the next one (answered ${out.verdict})` };
  }
  return { ok: false, what: 'cancel', detail: `after a cancel the next request got ${out?.verdict ?? 'nothing'}: ${out?.error ?? ''}` };
}
