/** Throws nothing: tells whether `new RegExp(pattern, flags)` would. Shared by the schema and its fast path. */
export function compiles(pattern: string, flags = ''): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}
