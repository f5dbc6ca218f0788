/**
 * How much a submitted archive may hold. Every cap is checked while the archive is read, before the bytes
 * it names are written, so an archive over a cap costs the arena at most the cap (never the archive's
 * claim). All of them are configurable; the defaults are issue 32's.
 */

/** The caps of one archive (unpacking) or one folder (packing). */
export interface IntakeLimits {
  /** The archive as uploaded (compressed), in bytes. */
  readonly archiveBytes: number;
  /** All files unpacked together, in bytes. */
  readonly unpackedBytes: number;
  /** Files and folders together. */
  readonly entries: number;
  /** Unpacked bytes per archive byte read so far, once `ratioGraceBytes` are unpacked. */
  readonly ratio: number;
  /** Unpacked bytes allowed before the ratio is checked (small archives compress well honestly). */
  readonly ratioGraceBytes: number;
  /** Longest relative path, in UTF-8 bytes. */
  readonly pathBytes: number;
  /** Most folders nested below the top. */
  readonly depth: number;
}

const MiB = 2 ** 20;

/** archive ≤ 10 MiB, unpacked ≤ 100 MiB, ≤ 10,000 entries, ≤ 200:1 after the first MiB, paths ≤ 1024 bytes, ≤ 32 deep. */
export const INTAKE_LIMITS: IntakeLimits = {
  archiveBytes: 10 * MiB,
  unpackedBytes: 100 * MiB,
  entries: 10_000,
  ratio: 200,
  ratioGraceBytes: MiB,
  pathBytes: 1024,
  depth: 32,
};

/** Formats a byte count for a refusal: `10 MiB`, `1.5 KiB`, `12 bytes`. */
export function bytesText(n: number): string {
  if (n >= MiB) return `${+(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}
