import type { ReportResult } from '../model.js';
import { trial } from './trials.js';

const opusUsage = {
  inputTokens: 12_000,
  outputTokens: 800,
  cachedInputTokens: 4000,
  costUsd: 0.05,
  costSource: 'agent',
} as const;

/**
 * Two agents, three cases, three trials each:
 * - opus: write-hello 3/3, fix-bug 2/3 (flaky), rename 2/3 (one agent error); usage reported by every trial;
 * - haiku: write-hello 1/3, fix-bug 0/3 (one timed out), rename 1/3 (one harness error); no usage.
 */
export const twoAgents: ReportResult[] = [
  trial('opus', 'write-hello', 1, 'passed', 1000, { ...opusUsage, model: 'claude-opus-4-1' }),
  trial('opus', 'write-hello', 2, 'passed', 1200, { ...opusUsage, model: 'claude-opus-4-1' }),
  trial('opus', 'write-hello', 3, 'passed', 1100, { ...opusUsage, model: 'claude-opus-4-1' }),
  trial('opus', 'fix-bug', 1, 'passed', 3000, { ...opusUsage, model: 'claude-opus-4-1' }),
  trial('opus', 'fix-bug', 2, 'failed', 5000, { ...opusUsage, model: 'claude-opus-4-1' }),
  trial('opus', 'fix-bug', 3, 'passed', 4000, { ...opusUsage, model: 'claude-opus-4-1' }),
  trial('opus', 'rename', 1, 'passed', 20_000, { ...opusUsage, model: 'claude-opus-4-1' }),
  trial('opus', 'rename', 2, 'agentError', 500, { ...opusUsage, model: 'claude-sonnet-4-5' }),
  trial('opus', 'rename', 3, 'passed', 22_000, { ...opusUsage, model: 'claude-opus-4-1' }),
  trial('haiku', 'write-hello', 1, 'passed', 700),
  trial('haiku', 'write-hello', 2, 'failed', 600),
  trial('haiku', 'write-hello', 3, 'failed', 800),
  trial('haiku', 'fix-bug', 1, 'failed', 2000),
  trial('haiku', 'fix-bug', 2, 'failed', 2500),
  trial('haiku', 'fix-bug', 3, 'timedOut', 120_000),
  trial('haiku', 'rename', 1, 'harnessError', 10),
  trial('haiku', 'rename', 2, 'failed', 9000),
  trial('haiku', 'rename', 3, 'passed', 11_000),
];
