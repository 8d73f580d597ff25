/** Raised for an option or `GZ_BENCH_*` variable that cannot be used; its message says which and why. */
export class OptionsError extends Error {
  readonly code = 'GZ_BENCH_INVALID_OPTION';
  override name = 'OptionsError';

  constructor(message: string) {
    super(message);
    // Vitest prints a startup error's stack: the user needs the message, which names the option, not our frames.
    this.stack = `${this.name}: ${message}`;
  }
}
