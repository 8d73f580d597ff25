/**
 * Writes to stdout. A reader that stopped early (`gz-bench --help | head -1`) is no error of the
 * command, whose exit code stands: the broken pipe is swallowed instead of surfacing as a stack trace.
 */
export function writeOut(text: string): Promise<void> {
  return new Promise((done) => {
    const stopped = (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      done();
    };
    process.stdout.once('error', stopped);
    process.stdout.write(text, (error) => {
      // A failed write also emits 'error' after this: the listener stays for it.
      if (!error) process.stdout.off('error', stopped);
      done();
    });
  });
}
