/**
 * Seeded, portable PRNG: xoshiro128** (Blackman & Vigna) seeded through splitmix32. Everything is 32-bit
 * integer arithmetic with Math.imul and >>> 0, so the same seed gives the same stream on every machine and
 * every JavaScript engine. The core never draws from the engine's own unseeded generator.
 */

/** Identifies this generator and the scramble algorithms built on it; stored with every match so it replays. */
export const GENERATOR_VERSION = 'xoshiro128ss-v1';

/** A seeded random source. */
export interface Rng {
  /** Uniform integer in [0, n), n ≤ 2^32, without modulo bias. */
  int(n: number): number;
  /** Uniform 32-bit unsigned integer. */
  next(): number;
  /** A new independent generator derived from this one (for per-scramble streams). */
  fork(): Rng;
}

/** Turns a user seed (a number or any string) into a 32-bit unsigned integer, stably. */
export function seedToUint32(seed: number | string): number {
  if (typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff) return seed >>> 0;
  const text = String(seed);
  // FNV-1a over UTF-16 code units: stable and good enough to spread string seeds.
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

class Xoshiro128 implements Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    const st = { s: seed | 0 };
    this.a = splitmix32(st);
    this.b = splitmix32(st);
    this.c = splitmix32(st);
    this.d = splitmix32(st);
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  next(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  int(n: number): number {
    if (!(n >= 1 && n <= 0x100000000) || !Number.isInteger(n)) throw new RangeError(`rng.int: bad bound ${n}`);
    if (n === 0x100000000) return this.next();
    // Rejection sampling: discard the top partial bucket so every value is equally likely.
    const limit = 0x100000000 - (0x100000000 % n);
    for (;;) {
      const x = this.next();
      if (x < limit) return x % n;
    }
  }

  fork(): Rng {
    return new Xoshiro128(this.next() ^ 0x5bd1e995);
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Creates a generator from a user seed (number or string). */
export function createRng(seed: number | string): Rng {
  return new Xoshiro128(seedToUint32(seed));
}

/** Fisher–Yates shuffle in place, driven by `rng`. */
export function shuffleInPlace<T extends { length: number; [i: number]: unknown }>(arr: T, rng: Rng): T {
  for (let i = arr.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = arr[i];
    arr[i] = arr[j];
    arr[j] = t;
  }
  return arr;
}
