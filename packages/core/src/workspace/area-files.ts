// Names of the files gz-bench keeps in a case area, apart from the owner record's zod schema
// (owner-record.ts re-exports them), so that running a case loads no schema library.

/** Name of the owner record inside a case area. */
export const OWNER_FILE = 'owner.json';

/** Name of the mark of an area kept for the user (`--keep`), which cleanStaleAreas never removes. */
export const KEPT_FILE = 'kept.json';
