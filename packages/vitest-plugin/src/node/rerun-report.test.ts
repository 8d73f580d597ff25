import type { ReportResult } from '@gz-bench/core';
import { describe, expect, it } from 'vitest';
import { withRetryErrorsValue } from '../cli/rerun-flags.js';
import { resumeForWorkers, withEarlierPasses } from './rerun-report.js';

const row = (id: string, trial: number, outcome: ReportResult['outcome'], extra: Partial<ReportResult> = {}) =>
  ({
    id,
    trial,
    outcome,
    passed: outcome === 'passed',
    suite: 's',
    file: 'bench/s.bench.json',
    durationMs: 5,
    checkResults: [],
    ...(outcome === 'notRun' && { notRun: true }),
    ...extra,
  }) as ReportResult;

describe('withEarlierPasses', () => {
  it('gives a trial that did not run this time its earlier passing row, and nothing else', () => {
    const earlier = [row('a', 1, 'passed', { durationMs: 99 }), row('a', 2, 'failed'), row('b', 1, 'passed')];
    const now = [row('a', 1, 'notRun'), row('a', 2, 'notRun'), row('b', 1, 'failed')];
    expect(withEarlierPasses(now, earlier)).toEqual([earlier[0], now[1], now[2]]);
  });

  it('tells cells apart by agent and file', () => {
    const earlier = [row('a', 1, 'passed', { agentName: 'x' }), row('a', 1, 'passed', { file: 'other.json' })];
    const now = [row('a', 1, 'notRun', { agentName: 'y' })];
    expect(withEarlierPasses(now, earlier)).toEqual(now);
  });
});

describe('resumeForWorkers', () => {
  it('groups the rows by absolute suite file and cell', () => {
    const rows = [row('a', 1, 'passed', { agentName: 'x' }), row('a', 2, 'failed', { agentName: 'x' })];
    expect(resumeForWorkers(rows, '/root')).toEqual({ '/root/bench/s.bench.json': { '["x","a"]': rows } });
  });
});

describe('withRetryErrorsValue', () => {
  it('gives a bare --retry-errors the count 1, and leaves a given count and what follows -- alone', () => {
    expect(withRetryErrorsValue(['--retry-errors', 's.json'])).toEqual(['--retry-errors', '1', 's.json']);
    expect(withRetryErrorsValue(['s.json', '--retry-errors'])).toEqual(['s.json', '--retry-errors', '1']);
    expect(withRetryErrorsValue(['--retry-errors', '3', 's.json'])).toEqual(['--retry-errors', '3', 's.json']);
    expect(withRetryErrorsValue(['--retry-errors=2'])).toEqual(['--retry-errors=2']);
    expect(withRetryErrorsValue(['--', '--retry-errors'])).toEqual(['--', '--retry-errors']);
  });
});
