/** The machine does not let the run start (an unusable temp dir); the message says what and how to fix it. */
export class EnvironmentError extends Error {
  readonly code = 'GZ_BENCH_ENVIRONMENT';
  override name = 'EnvironmentError';

  // No `cause`: Vitest would print the cause's stack after the message.
  constructor(message: string) {
    super(message);
    // Vitest prints a startup error's stack: the user needs the message, not our frames.
    this.stack = `${this.name}: ${message}`;
  }
}
