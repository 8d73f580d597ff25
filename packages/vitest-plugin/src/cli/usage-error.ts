/** A mistake in how the CLI was called; it exits with code 2 and the message. */
export class UsageError extends Error {
  readonly code = 'GZ_BENCH_USAGE';
  override name = 'UsageError';
}
