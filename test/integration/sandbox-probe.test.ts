/**
 * The probe, against real programs: the real bwrap of this machine, and fake ones (shell scripts) that
 * fail the way bwrap fails where a machine cannot confine, with the kernel settings that explain it.
 */
import { chmodSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeUnsupported, probeSandbox } from '../../src/sandbox/probe.ts';
import { CAN_SANDBOX } from '../helpers/sandbox.ts';

const dir = mkdtempSync(join(tmpdir(), 'arena-probe-'));

/** A fake bwrap that records its arguments, prints `message` on stderr and exits 1. */
function failingBwrap(name: string, message: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\nprintf '%s\\n' "$@" > "${file}.args"\necho '${message}' >&2\nexit 1\n`);
  chmodSync(file, 0o755);
  return file;
}

/** A PATH holding a setpriv (the real one) and nothing else. */
function pathWithSetpriv(): string {
  const bin = mkdtempSync(join(dir, 'bin-'));
  symlinkSync('/usr/bin/setpriv', join(bin, 'setpriv'));
  return bin;
}

const NO_USERNS = "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.";
const sysctls = (values: Record<string, string>) => (name: string) => values[name];

describe('probeSandbox', () => {
  it.runIf(CAN_SANDBOX)('probeSandbox - the real bwrap of this machine confines (and, as root, through setpriv)', () => {
    const s = probeSandbox();
    expect(s, s.ok ? '' : describeUnsupported(s)).toMatchObject({ ok: true });
    if (s.ok && process.getuid?.() === 0) expect(s.setpriv).toMatch(/setpriv$/);
  });

  it('probeSandbox - bwrap missing: not installed, and the package to install', () => {
    const s = probeSandbox({ bwrap: join(dir, 'no-such-bwrap'), root: false });
    expect(s).toEqual({ ok: false, cause: `bubblewrap is not installed (${join(dir, 'no-such-bwrap')} is not a program)`, fix: 'apt-get install bubblewrap (dnf/pacman: bubblewrap)' });
    const onPath = probeSandbox({ path: dir, root: false });
    expect(onPath.ok ? '' : onPath.cause).toBe('bubblewrap is not installed (no bwrap on PATH)');
  });

  it('probeSandbox - runs a real sandbox, with the namespaces and (as root) the setpriv step a bot gets', () => {
    const bwrap = failingBwrap('records', 'bwrap: something');
    probeSandbox({ bwrap, path: pathWithSetpriv(), root: true, sysctl: sysctls({}), container: false });
    const args = readFileSync(`${bwrap}.args`, 'utf8').split('\n');
    for (const f of ['--unshare-pid', '--unshare-net', '--unshare-ipc', '--new-session', '--die-with-parent']) expect(args).toContain(f);
    const inner = args.indexOf('--');
    expect(args[inner + 1]).toMatch(/\/setpriv$/);
    expect(args.slice(inner + 2, inner + 4)).toEqual(['--reuid', '65534']);
    expect(args[args.length - 2]).toBe('/usr/bin/true');
  });

  it('probeSandbox - root without setpriv: util-linux is the fix', () => {
    const s = probeSandbox({ bwrap: failingBwrap('unused', 'x'), path: dir, root: true });
    expect(s.ok ? '' : s.fix).toBe('apt-get install util-linux');
  });

  it('probeSandbox - unprivileged user namespaces switched off: the sysctl that switches them on', () => {
    const s = probeSandbox({ bwrap: failingBwrap('userns', NO_USERNS), root: false, sysctl: sysctls({ 'kernel.unprivileged_userns_clone': '0' }), container: false });
    expect(s).toEqual({
      ok: false,
      cause: 'unprivileged user namespaces are switched off (kernel.unprivileged_userns_clone = 0)',
      fix: 'sysctl -w kernel.unprivileged_userns_clone=1 (and in /etc/sysctl.d/ to keep it)',
    });
    const limit = probeSandbox({ bwrap: failingBwrap('userns2', NO_USERNS), root: false, sysctl: sysctls({ 'user.max_user_namespaces': '0' }), container: false });
    expect(limit.ok ? '' : limit.fix).toBe('sysctl -w user.max_user_namespaces=15000 (and in /etc/sysctl.d/ to keep it)');
  });

  it("probeSandbox - Ubuntu's AppArmor restriction: its sysctl, or a profile", () => {
    const bwrap = failingBwrap('apparmor', 'bwrap: setting up uid map: Permission denied');
    const s = probeSandbox({ bwrap, root: false, sysctl: sysctls({ 'kernel.apparmor_restrict_unprivileged_userns': '1', 'user.max_user_namespaces': '63000' }), container: false });
    expect(s.ok ? '' : s.cause).toMatch(/AppArmor forbids unprivileged user namespaces/);
    expect(s.ok ? '' : s.fix).toMatch(/^sysctl -w kernel\.apparmor_restrict_unprivileged_userns=0/);
  });

  it('probeSandbox - a container that refuses namespaces: what bwrap said, and how to run the container', () => {
    const bwrap = failingBwrap('seccomp', 'bwrap: Creating new namespace failed: Operation not permitted');
    const s = probeSandbox({ bwrap, path: pathWithSetpriv(), root: true, sysctl: sysctls({}), container: true });
    expect(s.ok ? '' : describeUnsupported(s)).toBe(
      'cannot confine bots on this machine: this container refuses the namespaces bwrap needs (bwrap said: bwrap: Creating new namespace failed: Operation not permitted); fix: run the container with --security-opt seccomp=unconfined --cap-add SYS_ADMIN (or run the arena outside it)',
    );
  });

  it('probeSandbox - any other failure: what bwrap said, in one line', () => {
    const s = probeSandbox({ bwrap: failingBwrap('other', 'bwrap: Can not mount proc'), root: false, sysctl: sysctls({}), container: false });
    const line = s.ok ? '' : describeUnsupported(s);
    expect(line).toMatch(/bwrap cannot make a sandbox here \(it said: bwrap: Can not mount proc\)/);
    expect(line).not.toContain('\n');
  });
});
