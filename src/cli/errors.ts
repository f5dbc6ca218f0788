/**
 * A user-facing failure: printed as one line, then the process exits with `exitCode`. Anything else that
 * reaches the top level is a bug and is reported as one line too (the stack only with ARENA_DEBUG=1).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Unwraps a Result for the CLI: a rejection becomes a CliError with its reason. */
export function must<T>(r: { ok: true; value: T } | { ok: false; reason: string }, context?: string): T {
  if (r.ok) return r.value;
  // A flag's name reads as the subject of its reason ("--time-limit needs a unit"); other contexts take a colon.
  throw new CliError(context ? `${context}${context.startsWith('--') ? ' ' : ': '}${r.reason}` : r.reason);
}
