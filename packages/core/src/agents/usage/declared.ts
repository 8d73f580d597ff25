import type { Usage } from '../../report/model.js';
import type { UsageField } from '../definition.js';
import { type PathStep, parseJsonPath, selectPath } from './json-path.js';
import type { RecordExtractor } from './reducer.js';
import { addFigures, usageNumber } from './usage-fields.js';

type FieldPaths = Partial<Record<UsageField, string>>;

/** A user's `json` extractor: each field is a path into the last JSON document of stdout. */
export function jsonExtractor(paths: FieldPaths): RecordExtractor {
  const compiled = compile(paths);
  return {
    source: 'documents',
    reducer() {
      let last: unknown;
      let seen = false;
      return {
        add(record) {
          last = record;
          seen = true;
        },
        finish() {
          if (!seen) return undefined;
          const usage: Usage = {};
          for (const [field, steps] of compiled) setField(usage, field, selectPath(last, steps), true);
          return usage;
        },
      };
    },
  };
}

/**
 * A user's `jsonl` extractor: each field is a path into every JSON line; the last line that has it
 * counts, or, with `sum`, every line's figure is added up (`model` is then the last one).
 */
export function jsonlExtractor(paths: FieldPaths, sum: boolean): RecordExtractor {
  const compiled = compile(paths);
  return {
    source: 'lines',
    reducer() {
      const usage: Usage = {};
      return {
        add(record) {
          for (const [field, steps] of compiled) {
            const values = selectPath(record, steps);
            if (values.length === 0) continue;
            if (sum && field !== 'model') {
              const figure = total(values);
              if (figure !== undefined) usage[field] = addFigures(usage[field], figure);
            } else setField(usage, field, values, true);
          }
        },
        finish: () => usage,
        // Every line is a record as it comes: the figures so far are the usage so far.
        current: () => ({ ...usage }),
      };
    },
  };
}

function compile(paths: FieldPaths): Array<[UsageField, PathStep[]]> {
  return Object.entries(paths).flatMap(([field, path]) =>
    path === undefined ? [] : [[field as UsageField, parseJsonPath(path)] as [UsageField, PathStep[]]],
  );
}

/** Sets a field from the values a path found: the text of the first for `model`, the sum of the figures otherwise. */
export function setField(usage: Usage, field: UsageField, values: unknown[], replace: boolean): void {
  if (field === 'model') {
    const name = values.find((value): value is string => typeof value === 'string' && value !== '');
    if (name !== undefined) usage.model = name;
    return;
  }
  const figure = total(values);
  if (figure === undefined) return;
  usage[field] = replace ? figure : addFigures(usage[field], figure);
}

/** The sum of the figures among `values` (several through `*`), or undefined when none is a figure. */
function total(values: unknown[]): number | undefined {
  let sum: number | undefined;
  for (const value of values) {
    const figure = usageNumber(value);
    if (figure !== undefined) sum = addFigures(sum, figure);
  }
  return sum;
}
