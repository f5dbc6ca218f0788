/** Quotes one argument for a POSIX shell, only when it needs it: a printed command must run as printed. */
export function shellQuote(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}
