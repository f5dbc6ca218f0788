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
      expect(p.filter((r) => r[0] === 0x06).map((r) => r[3])).toEqual([0x7fff0000, 0x50001, 0x50026, 0x50001, 0x50001, 0x7fff0000]);
      // Every jump lands inside the program.
      p.forEach((r, i) => {
        if (r[0] !== 0x06 && (r[0]! & 0x07) === 0x05) expect(i + 1 + Math.max(r[1]!, r[2]!)).toBeLessThan(p.length);
      });
    }
  });

  it('noUsernsFilter - run by a BPF interpreter: the key calls and CLONE_NEWUSER refused, their neighbours and other flags allowed', () => {
    const ALLOW = 0x7fff0000;
    const EPERM = 0x50001;
    for (const [arch, audit, nr] of [
      ['x64', 0xc000003e, { unshare: 272, clone: 56, clone3: 435, keys: 248 }],
      ['arm64', 0xc00000b7, { unshare: 97, clone: 220, clone3: 435, keys: 217 }],
    ] as const) {
      const p = rows(noUsernsFilter(arch)!);
      const run = (a: number, n: number, arg0 = 0): number => runBpf(p, a, n, arg0);
      expect(run(audit, nr.unshare, 0x10000000)).toBe(EPERM);
      expect(run(audit, nr.clone, 0x10000000 | 0x11)).toBe(EPERM);
      expect(run(audit, nr.unshare, 0x40000000)).toBe(ALLOW); // CLONE_NEWNET alone: the kernel refuses it without a user namespace
      expect(run(audit, nr.clone, 0x11)).toBe(ALLOW);
      expect(run(audit, nr.clone3)).toBe(0x50026);
      for (const k of [nr.keys, nr.keys + 1, nr.keys + 2]) expect(run(audit, k), `key call ${k}`).toBe(EPERM);
      expect(run(audit, nr.keys - 1)).toBe(ALLOW);
      expect(run(audit, nr.keys + 3)).toBe(ALLOW);
      expect(run(0x40000003, nr.keys)).toBe(ALLOW); // another architecture's numbers mean other calls
    }
  });

  it('noUsernsFilter - an architecture it does not know: none (the sandbox then refuses to start a bot as root)', () => {
    expect(noUsernsFilter('mips')).toBeUndefined();
  });
});

/** A classic-BPF interpreter for the few opcodes the filter uses, over a seccomp_data of (nr, arch, args[0]). */
function runBpf(p: number[][], arch: number, nr: number, arg0: number): number {
  const data = (off: number): number => (off === 0 ? nr : off === 4 ? arch : off === 16 ? arg0 >>> 0 : 0);
  let acc = 0;
  for (let pc = 0; pc < p.length; pc++) {
    const [code, jt, jf, k] = p[pc]!;
    if (code === 0x20) acc = data(k!);
    else if (code === 0x06) return k!;
    else if (code === 0x15) pc += acc >>> 0 === k! >>> 0 ? jt! : jf!;
    else if (code === 0x35) pc += acc >>> 0 >= k! >>> 0 ? jt! : jf!;
    else if (code === 0x45) pc += (acc & k!) !== 0 ? jt! : jf!;
    else throw new Error(`opcode ${code} not interpreted`);
  }
  throw new Error('the program fell off its end');
}
