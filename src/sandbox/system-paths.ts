/**
 * The machine's system folders as a sandbox shows them: /usr, and the top-level program and library
 * folders as this distribution has them (symlinks into /usr on a merged-/usr system, folders elsewhere),
 * plus the few /etc files the dynamic linker and language runtimes read (Node reads OpenSSL's config at
 * start-up; a Debian JDK its /etc/java-<n>-openjdk). Nothing else of /etc: not
 * passwd or shadow, not the machine's network or credentials configuration.
 */
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import type { SystemPath } from './bwrap-args.ts';

const TOP = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
const ETC = ['/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/alternatives', '/etc/localtime', '/etc/ssl/openssl.cnf'];

/** /bin, /lib, … as they are here (absent ones left out). */
export function systemPaths(): SystemPath[] {
  const out: SystemPath[] = [];
  for (const path of TOP) {
    try {
      const st = lstatSync(path);
      if (st.isSymbolicLink()) out.push({ path, symlink: readlinkSync(path) });
      else if (st.isDirectory()) out.push({ path, folder: true });
    } catch {
      // not on this machine
    }
  }
  return out;
}

/** Debian's JDKs keep their configuration (conf/security/java.security, …) in /etc/java-<n>-openjdk, linked from the JDK: javac fails without it. */
const JAVA_ETC = /^java-\d+-openjdk$/;

/** The /etc entries present here that a runtime may need. */
export function etcPaths(): string[] {
  let java: string[] = [];
  try {
    java = readdirSync('/etc').filter((n) => JAVA_ETC.test(n)).map((n) => `/etc/${n}`);
  } catch {
    // no /etc to read: none
  }
  return [...ETC, ...java].filter((p) => {
    try {
      lstatSync(p);
      return true;
    } catch {
      return false;
    }
  });
}
