import { describe, expect, it } from 'vitest';
import { noUsernsFilter } from '../../src/sandbox/limits/no-userns-filter.ts';

/** The program as [code, jt, jf, k] rows. */
const rows = (b: Buffer): number[][] => Array.from({ length: b.length / 8 }, (_, i) => [b.readUInt16LE(i * 8), b[i * 8 + 2]!, b[i * 8 + 3]!, b.readUInt32LE(i * 8 + 4)]);

describe('noUsernsFilter', () => {
  it('noUsernsFilter - x86-64 and arm64: checks the architecture, refuses CLONE_NEWUSER with EPERM and clone3 with ENOSYS', () => {
    for (const [arch, audit, unshare] of [['x64', 0xc000003e, 272], ['arm64', 0xc00000b7, 97]] as const) {
      const p = rows(noUsernsFilter(arch)!);
      expect(p[0]).toEqual([0x20, 0, 0, 4]);
      expect(p[1]).toEqual([0x15, 1, 0, audit]);
      expect(p.some((r) => r[0] === 0x15 && r[3] === unshare)).toBe(true);
      expect(p.some((r) => r[0] === 0x45 && r[3] === 0x10000000)).toBe(true);
      expect(p.filter((r) => r[0] === 0x06).map((r) => r[3])).toEqual([0x7fff0000, 0x50001, 0x50026, 0x50001, 0x7fff0000]);
      // Every jump lands inside the program.
      p.forEach((r, i) => {
        if (r[0] !== 0x06 && (r[0]! & 0x07) === 0x05) expect(i + 1 + Math.max(r[1]!, r[2]!)).toBeLessThan(p.length);
      });
    }
  });

  it('noUsernsFilter - an architecture it does not know: none (the sandbox then refuses to start a bot as root)', () => {
    expect(noUsernsFilter('mips')).toBeUndefined();
  });
});
