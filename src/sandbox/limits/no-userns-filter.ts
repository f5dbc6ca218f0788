/**
 * A seccomp filter (classic BPF, as bwrap's --seccomp takes it) that keeps a bot from making a user
 * namespace, for a root referee, where bwrap's own --disable-userns is not available (it needs bwrap to
 * make the bot's user namespace, and a root bwrap drops to the bot's uid with setpriv instead). Without a
 * user namespace an unprivileged uid cannot make any other namespace either (network, mount, ...), so
 * `unshare -Ur` and `unshare -n` both fail with EPERM. It also refuses the kernel's key calls (add_key,
 * request_key, keyctl: EPERM, as Docker's default profile does): a uid's keyring outlives the bot, so a later
 * bot given the same pool uid could read what an earlier one left there, and no bot needs a keyring.
 *
 * The filter: on an architecture it does not know, every call is allowed (bwrap refuses nothing else);
 * on x86-64 the x32 calls are refused; clone3 gets ENOSYS (its flags sit in memory a filter cannot read;
 * the C library then falls back to clone, as under Docker's default profile); unshare and clone with
 * CLONE_NEWUSER in their first argument get EPERM. Flags are read from the low 32 bits of the argument
 * (offset 16 of seccomp_data on these little-endian machines), which is where CLONE_NEWUSER lives.
 */
import { arch } from 'node:process';

const CLONE_NEWUSER = 0x10000000;
const EPERM = 1;
const ENOSYS = 38;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const X32_BIT = 0x40000000;

/** Audit architecture and the numbers of unshare, clone and clone3 where the filter is known. */
/** `keys`: the first of the three consecutive key calls add_key, request_key, keyctl. */
const ARCHES: Record<string, { audit: number; unshare: number; clone: number; clone3: number; keys: number; x32?: true }> = {
  x64: { audit: 0xc000003e, unshare: 272, clone: 56, clone3: 435, keys: 248, x32: true },
  arm64: { audit: 0xc00000b7, unshare: 97, clone: 220, clone3: 435, keys: 217 },
};

// BPF opcodes used.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

type Insn = [code: number, jt: number, jf: number, k: number];

/** The filter for this machine's architecture, or undefined where it is not known (the probe says so). */
export function noUsernsFilter(machine: string = arch): Buffer | undefined {
  const a = ARCHES[machine];
  if (!a) return undefined;
  const p: Insn[] = [
    [LD_W_ABS, 0, 0, 4], // arch
    [JEQ_K, 1, 0, a.audit],
    [RET_K, 0, 0, RET_ALLOW],
    [LD_W_ABS, 0, 0, 0], // syscall number
    [JGE_K, 0, 1, a.x32 ? X32_BIT : 0xffffffff],
    [RET_K, 0, 0, RET_ERRNO | EPERM],
    [JEQ_K, 0, 1, a.clone3],
    [RET_K, 0, 0, RET_ERRNO | ENOSYS],
    [JGE_K, 0, 2, a.keys], // add_key .. keyctl
    [JGE_K, 1, 0, a.keys + 3],
    [RET_K, 0, 0, RET_ERRNO | EPERM],
    [JEQ_K, 1, 0, a.unshare],
    [JEQ_K, 0, 3, a.clone],
    [LD_W_ABS, 0, 0, 16], // low half of the first argument: the flags
    [JSET_K, 0, 1, CLONE_NEWUSER],
    [RET_K, 0, 0, RET_ERRNO | EPERM],
    [RET_K, 0, 0, RET_ALLOW],
  ];
  const out = Buffer.alloc(p.length * 8);
  p.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
