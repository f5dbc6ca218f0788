import { describe, expect, it } from 'vitest';
import { bwrapArgs, INSIDE, type SandboxPlan } from '../../src/sandbox/bwrap-args.ts';

const base: SandboxPlan = {
  system: [
    { path: '/bin', symlink: 'usr/bin' },
    { path: '/lib64', folder: true },
  ],
  etc: ['/etc/ld.so.cache'],
  readOnly: [{ source: '/root/.pyenv/versions/3.11.7', dest: '/root/.pyenv/versions/3.11.7' }],
  writable: [{ source: '/srv/bots/spy', dest: '/srv/bots/spy' }],
  chdir: '/srv/bots/spy',
  tmpBytes: 64 * 1024 * 1024,
};

/** The option pairs/triples as a list of [flag, ...operands] in order. */
function flags(options: string[]): string[][] {
  const arity: Record<string, number> = { '--seccomp': 1, '--ro-bind': 2, '--bind': 2, '--symlink': 2, '--setenv': 2, '--perms': 1, '--dir': 1, '--size': 1, '--tmpfs': 1, '--proc': 1, '--dev': 1, '--chdir': 1, '--hostname': 1, '--cap-add': 1 };
  const out: string[][] = [];
  for (let i = 0; i < options.length; ) {
    const n = arity[options[i]] ?? 0;
    out.push(options.slice(i, i + 1 + n));
    i += 1 + n;
  }
  return out;
}

describe('bwrapArgs', () => {
  it('bwrapArgs - unshares pid, net, ipc, uts and cgroup, starts a new session and dies with its parent', () => {
    const { options } = bwrapArgs(base, {});
    for (const f of ['--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--new-session', '--die-with-parent']) {
      expect(options).toContain(f);
    }
    expect(options).not.toContain('--share-net');
  });

  it('bwrapArgs - as root: a real unprivileged uid through setpriv, every capability dropped, no user namespace', () => {
    const { options, prefix } = bwrapArgs({ ...base, user: { setpriv: '/usr/bin/setpriv', uid: 65534, gid: 65534 } }, {});
    expect(prefix).toEqual(['/usr/bin/setpriv', '--reuid', '65534', '--regid', '65534', '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--']);
    // bwrap keeps exactly the three capabilities setpriv needs to change uid and clear the bounding set.
    expect(flags(options).filter((f) => f[0] === '--cap-add').map((f) => f[1]).sort()).toEqual(['CAP_SETGID', 'CAP_SETPCAP', 'CAP_SETUID']);
    expect(options).not.toContain('--unshare-user');
  });

  it('bwrapArgs - not root: the own uid in a user namespace that cannot nest another, and no capability kept', () => {
    const { options, prefix } = bwrapArgs(base, {});
    expect(options).toContain('--unshare-user');
    expect(options).toContain('--disable-userns');
    expect(options).not.toContain('--cap-add');
    expect(prefix).toEqual([]);
  });

  it('bwrapArgs - the file system: /usr and system paths and /etc pieces read-only, the folder writable, a size-capped /tmp', () => {
    const f = flags(bwrapArgs(base, {}).options);
    expect(f).toContainEqual(['--ro-bind', '/usr', '/usr']);
    expect(f).toContainEqual(['--symlink', 'usr/bin', '/bin']);
    expect(f).toContainEqual(['--ro-bind', '/lib64', '/lib64']);
    expect(f).toContainEqual(['--ro-bind', '/etc/ld.so.cache', '/etc/ld.so.cache']);
    expect(f).toContainEqual(['--ro-bind', '/root/.pyenv/versions/3.11.7', '/root/.pyenv/versions/3.11.7']);
    const writable = f.filter((x) => x[0] === '--bind');
    expect(writable).toEqual([['--bind', '/srv/bots/spy', '/srv/bots/spy']]);
    const tmp = f.findIndex((x) => x[0] === '--tmpfs');
    expect(f.slice(tmp - 2, tmp + 4)).toEqual([
      ['--perms', '1777'],
      ['--size', String(64 * 1024 * 1024)],
      ['--tmpfs', '/tmp'],
      ['--perms', '1777'],
      ['--size', String(64 * 1024 * 1024)],
      ['--tmpfs', '/dev/shm'],
    ]);
    expect(f).toContainEqual(['--proc', '/proc']);
    expect(f).toContainEqual(['--dev', '/dev']);
    expect(f).toContainEqual(['--chdir', '/srv/bots/spy']);
    // Nothing else of the host: every source is /usr, a system path, an /etc piece, the runtime or the folder.
    const sources = f.filter((x) => x[0] === '--ro-bind' || x[0] === '--bind').map((x) => x[1]);
    expect(new Set(sources)).toEqual(new Set(['/usr', '/lib64', '/etc/ld.so.cache', '/root/.pyenv/versions/3.11.7', '/srv/bots/spy']));
  });

  it('bwrapArgs - every folder leading to a mount is created 0755 before it (bwrap would make it 0700)', () => {
    const f = flags(bwrapArgs(base, {}).options);
    const made = f.flatMap((x, i) => (x[0] === '--dir' ? [[f[i - 1][1], x[1]]] : []));
    expect(made).toEqual(
      expect.arrayContaining([
        ['0755', '/etc'],
        ['0755', '/root'],
        ['0755', '/root/.pyenv'],
        ['0755', '/root/.pyenv/versions'],
        ['0755', '/srv'],
        ['0755', '/srv/bots'],
      ]),
    );
    for (const [, folder] of made) {
      const mountedAt = f.findIndex((x) => (x[0] === '--ro-bind' || x[0] === '--bind') && x[2].startsWith(folder + '/'));
      const madeAt = f.findIndex((x) => x[0] === '--dir' && x[1] === folder);
      if (mountedAt >= 0) expect(madeAt).toBeLessThan(mountedAt);
    }
    // Folders inside /usr or inside a mount are never created (they exist there, read-only).
    expect(made.map((m) => m[1]).filter((d) => d.startsWith('/usr') || d.startsWith('/srv/bots/spy'))).toEqual([]);
  });

  it('bwrapArgs - the environment is exactly the one given, each variable once', () => {
    const env = { PATH: '/usr/bin', HOME: '/tmp', ARENA_TOKEN: 'abc' };
    const set = flags(bwrapArgs(base, env).options).filter((x) => x[0] === '--setenv');
    expect(set).toEqual([
      ['--setenv', 'PATH', '/usr/bin'],
      ['--setenv', 'HOME', '/tmp'],
      ['--setenv', 'ARENA_TOKEN', 'abc'],
    ]);
  });

  it('bwrapArgs - the relay and its socket are read-only at fixed places, in a folder made for them', () => {
    const plan: SandboxPlan = {
      ...base,
      readOnly: [...base.readOnly, { source: '/cache/arena-relay', dest: INSIDE.relay }, { source: '/tmp/arena-ch-x/referee.sock', dest: INSIDE.socket }],
    };
    const f = flags(bwrapArgs(plan, {}).options);
    expect(f).toContainEqual(['--ro-bind', '/cache/arena-relay', INSIDE.relay]);
    expect(f).toContainEqual(['--ro-bind', '/tmp/arena-ch-x/referee.sock', INSIDE.socket]);
    expect(f).toContainEqual(['--dir', '/run/arena']);
  });

  it('bwrapArgs - mounts are applied parents first, so a folder inside another shows the inner one', () => {
    const plan: SandboxPlan = {
      ...base,
      readOnly: [{ source: '/proj/bots/x', dest: '/proj/bots/x' }, { source: '/proj', dest: '/proj' }],
      writable: [{ source: '/proj/bots/x/out', dest: '/proj/bots/x/out' }],
      chdir: '/proj/bots/x/out',
    };
    const binds = flags(bwrapArgs(plan, {}).options)
      .filter((x) => x[0] === '--ro-bind' || x[0] === '--bind')
      .map((x) => x[2])
      .filter((d) => d.startsWith('/proj'));
    expect(binds).toEqual(['/proj', '/proj/bots/x', '/proj/bots/x/out']);
  });

  it('bwrapArgs - as root with a seccomp descriptor: bwrap loads the filter from it, and still makes no user namespace', () => {
    const { options } = bwrapArgs({ ...base, user: { setpriv: '/usr/bin/setpriv', uid: 60123, gid: 60123 }, seccompFd: 4 }, {});
    expect(flags(options)).toContainEqual(['--seccomp', '4']);
    expect(options).not.toContain('--unshare-user');
    expect(options).not.toContain('--disable-userns');
    expect(flags(bwrapArgs(base, {}).options).some((f) => f[0] === '--seccomp')).toBe(false);
  });

  it('bwrapArgs - a scratch space of the disk budget: /tmp and /dev/shm are its folders, bound, with no tmpfs of bwrap', () => {
    const f = flags(bwrapArgs({ ...base, scratch: { tmp: '/run/space/tmp', shm: '/run/space/shm' } }, {}).options);
    expect(f).toContainEqual(['--bind', '/run/space/tmp', '/tmp']);
    expect(f).toContainEqual(['--bind', '/run/space/shm', '/dev/shm']);
    expect(f.some((x) => x[0] === '--tmpfs')).toBe(false);
    // After /dev, so the bound /dev/shm is not hidden by it.
    expect(f.findIndex((x) => x[1] === '/run/space/shm')).toBeGreaterThan(f.findIndex((x) => x[0] === '--dev'));
  });
});
