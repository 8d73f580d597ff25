import type { TestAttachment, TestContext } from 'vitest';

/**
 * Annotates the test, and never fails it: annotations are a courtesy to Vitest's viewers and
 * reporters, and the report holds the same. A runner without the API, one that throws at once
 * (Vitest 4.1.12 does from the second repeat of a test, "Cannot annotate tests outside of the test
 * run"), and one whose promise rejects (a file that vanished before the main process copied it)
 * all leave the verdict as it was. Resolves to whether the annotation was recorded.
 */
export async function safeAnnotate(
  context: TestContext,
  message: string,
  type: string,
  attachment?: TestAttachment,
): Promise<boolean> {
  // Typed as always there, but a runner may lack it.
  if (typeof (context as Partial<TestContext>).annotate !== 'function') return false;
  try {
    await context.annotate(message, type, attachment);
    return true;
  } catch {
    return false;
  }
}
