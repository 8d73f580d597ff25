import type { Usage } from '../../report/model.js';
import type { TrajectoryBuilder } from '../trajectory/builder.js';

/** Where a reducer's records come from. */
export type RecordSource =
  /** Every line of stdout that parses as JSON, streamed: memory stays flat (JSONL formats). */
  | 'lines'
  /** Every JSON document of the whole stdout, read at once up to `maxBytes` (pretty-printed or one-line formats). */
  | 'documents';

/** Folds an agent's output records into its usage. One instance per extraction. */
export interface UsageReducer {
  add(record: unknown): void;
  finish(): Usage | undefined;
  /**
   * What the records so far report, for a format that reports usage as it goes (per model reply),
   * so that a budget holds while the agent runs; absent for formats that report only at their end.
   */
  current?(): Usage | undefined;
}

/** How one format's usage is read: where its records come from and how they fold. */
export interface RecordExtractor {
  source: RecordSource;
  reducer(): UsageReducer;
  /** The same records folded into the agent's steps, for the formats whose stream carries them. */
  trajectory?(): TrajectoryBuilder;
}
