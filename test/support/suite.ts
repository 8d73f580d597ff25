/** A check as a suite file holds it; tests may write invalid ones on purpose. */
export type CheckSpec = Record<string, unknown> & { kind: string };

/** A case as a test writes it; `checks` may be left out. */
export interface CaseSpec {
  id: string;
  prompt: string;
  checks?: CheckSpec[];
  setup?: string[];
  timeoutSec?: number;
}

/** A suite file's content: every case gets `checks: []` unless it has its own. */
export function suite(name: string, cases: CaseSpec[]): object {
  return { name, cases: cases.map((spec) => ({ ...spec, checks: spec.checks ?? [] })) };
}
