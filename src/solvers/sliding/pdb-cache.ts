import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { projectRootOf } from '../../runtime/source-tree.ts';
import { placements } from './pdb-rank.ts';

/** Bump when the table layout or the builder's semantics change: old files are then rebuilt. */
export const PDB_FORMAT_VERSION = 1;
const MAGIC = 0x42445041; // "APDB" little-endian
const HEADER = 32;
const MAX_TILES = 16;

/** `<projectRoot>/.cache/pdb/`, or `$ARENA_CACHE_DIR` when set. */
export function defaultCacheDir(): string {
  const env = process.env.ARENA_CACHE_DIR;
  if (env) return resolve(env);
  return join(projectRootOf(import.meta.url), '.cache', 'pdb');
}

/** File name of one pattern's table, e.g. `sliding-4x4-1-5-6-9-10-13.pdb`. */
export function pdbFileName(rows: number, cols: number, tiles: readonly number[]): string {
  return `sliding-${rows}x${cols}-${tiles.join('-')}.pdb`;
}

/** Bytes of the cached file of a pattern of `k` tiles on a board of `cells` cells: the header and the table. */
export function pdbFileBytes(cells: number, k: number): number {
  return HEADER + MAX_TILES + placements(cells, k);
}

/** FNV-1a over the bytes: catches truncation and most corruption, cheap next to the build. */
export function checksum(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

/**
 * Tables from this size up are checked at load by {@link sampleChecksum} alone: the full checksum of the
 * 519 MB 8-tile 4×4 table takes 1–3 s, longer than reading the file from the page cache, at every bot start.
 */
export const SAMPLED_CHECK_BYTES = 16 * 1024 * 1024;
/** Stride of the sampled checksum: a prime, so it does not fall into step with any layout of the table. */
const SAMPLE_STRIDE = 509;

/**
 * FNV-1a over every 509th byte and the last: catches a truncated, padded or swapped file and any damaged
 * run of 509 bytes or more (a lost page reads as zeros), in milliseconds; not a flipped single bit, which
 * only the full {@link checksum}, written beside it, would see.
 */
export function sampleChecksum(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i += SAMPLE_STRIDE) h = Math.imul(h ^ bytes[i], 0x01000193);
  if (bytes.length > 0) h = Math.imul(h ^ bytes[bytes.length - 1], 0x01000193);
  // Never 0: 0 at @20 marks a file written before the sampled checksum existed.
  return h >>> 0 || 1;
}

/**
 * Layout (little-endian): magic u32 @0, version u32 @4, rows u8 @8, cols u8 @9, k u8 @10, table length u32
 * @12, checksum of the table u32 @16, its {@link sampleChecksum} u32 @20 (0 in files written before it, which
 * are then checked in full), zeros to 32; the k pattern tiles padded to 16 bytes @32; the table @48.
 */
function encode(rows: number, cols: number, tiles: readonly number[], table: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + MAX_TILES + table.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, MAGIC, true);
  dv.setUint32(4, PDB_FORMAT_VERSION, true);
  out[8] = rows;
  out[9] = cols;
  out[10] = tiles.length;
  dv.setUint32(12, table.length, true);
  dv.setUint32(16, checksum(table), true);
  dv.setUint32(20, sampleChecksum(table), true);
  out.set(tiles, HEADER);
  out.set(table, HEADER + MAX_TILES);
  return out;
}

/**
 * Reads a cached table; null when the file is missing, of another version or pattern, truncated or corrupt
 * (big tables: as far as {@link sampleChecksum} sees).
 */
export function loadPdb(dir: string, rows: number, cols: number, tiles: readonly number[]): Uint8Array | null {
  let buf: Buffer;
  try {
    buf = readFileSync(join(dir, pdbFileName(rows, cols, tiles)));
  } catch {
    return null;
  }
  if (buf.length < HEADER + MAX_TILES) return null;
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (dv.getUint32(0, true) !== MAGIC || dv.getUint32(4, true) !== PDB_FORMAT_VERSION) return null;
  if (buf[8] !== rows || buf[9] !== cols || buf[10] !== tiles.length) return null;
  for (let i = 0; i < tiles.length; i++) if (buf[HEADER + i] !== tiles[i]) return null;
  const len = dv.getUint32(12, true);
  if (buf.length !== HEADER + MAX_TILES + len) return null;
  const table = new Uint8Array(buf.buffer, buf.byteOffset + HEADER + MAX_TILES, len);
  const sampled = dv.getUint32(20, true);
  if (len >= SAMPLED_CHECK_BYTES && sampled !== 0) return sampleChecksum(table) === sampled ? table : null;
  if (checksum(table) !== dv.getUint32(16, true)) return null;
  return table;
}

/**
 * Writes a table atomically (temporary file, then rename), so a concurrent reader, say the other bot of a
 * self-play match, never sees half a file.
 */
export function savePdb(dir: string, rows: number, cols: number, tiles: readonly number[], table: Uint8Array): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, pdbFileName(rows, cols, tiles));
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, encode(rows, cols, tiles, table));
  renameSync(tmp, file);
}
