import type { Outcome } from '../report/model.js';
import type { CellRule } from '../stats/cell-rule.js';
import { type Baseline, type BaselineCases, type BaselineEntry, emptyBaseline, setOwn } from './baseline-file.js';

/** One cell's result of this run, as the baseline records it. */
export interface RanCell {
  /** Absent for the run's one `cmd`. */
  agentName?: string | undefined;
  caseId: string;
  passes: number;
  trials: number;
  /** How its one trial ended, when it has one. */
  outcome?: Outcome | undefined;
}

/** A baseline entry whose case the suite no longer has. */
export interface ObsoleteEntry {
  agentName?: string;
  caseId: string;
}

/** The entries of cases that are no longer in the suite (`caseIds`), in the file's order. */
export function obsoleteEntries(baseline: Baseline, caseIds: ReadonlySet<string>): ObsoleteEntry[] {
  const gone = (cases: BaselineCases) => Object.keys(cases).filter((id) => !caseIds.has(id));
  return [
    ...gone(baseline.cases).map((caseId) => ({ caseId })),
    ...Object.entries(baseline.agents).flatMap(([agentName, cases]) =>
      gone(cases).map((caseId) => ({ agentName, caseId })),
    ),
  ];
}

/**
 * The baseline after an update: every cell that ran takes this run's result, entries of cases the
 * suite no longer has go, and the rest (cells a filtered run did not run, other agents) stay as they
 * were. The pass rule becomes the run's.
 */
export function updateBaseline(
  existing: Baseline | undefined,
  ran: readonly RanCell[],
  caseIds: ReadonlySet<string>,
  passRule: CellRule,
): Baseline {
  const next = emptyBaseline(passRule);
  const keep = (from: BaselineCases, into: BaselineCases) => {
    for (const [id, entry] of Object.entries(from)) if (caseIds.has(id)) setOwn(into, id, entry);
  };
  if (existing !== undefined) {
    keep(existing.cases, next.cases);
    for (const [name, cases] of Object.entries(existing.agents)) {
      const into: BaselineCases = {};
      keep(cases, into);
      setOwn(next.agents, name, into);
    }
  }
  for (const cell of ran) {
    if (!caseIds.has(cell.caseId)) continue;
    let into = next.cases;
    if (cell.agentName !== undefined) {
      const agents = next.agents;
      if (!Object.hasOwn(agents, cell.agentName)) setOwn(agents, cell.agentName, {});
      into = agents[cell.agentName] as BaselineCases;
    }
    const entry: BaselineEntry = { passes: cell.passes, trials: cell.trials };
    if (cell.trials === 1 && cell.outcome !== undefined) entry.outcome = cell.outcome;
    setOwn(into, cell.caseId, entry);
  }
  return next;
}
