import { describe, expect, it } from 'vitest';
import type { Suite } from './schema.js';
import { withSuiteSettings } from './suite-settings.js';

const suite: Suite = {
  name: 's',
  allowEnv: ['SUITE_KEY'],
  env: { A: 'suite', B: 'suite' },
  git: true,
  cases: [],
};

describe('withSuiteSettings', () => {
  it("gives cases the suite's setup and check bounds, a case's own winning", () => {
    const bounded: Suite = { ...suite, setupTimeoutSec: 600, checkTimeoutSec: 5 };
    const merged = withSuiteSettings(bounded, { id: 'c', prompt: 'p', checks: [], checkTimeoutSec: 30 });
    expect(merged).toMatchObject({ setupTimeoutSec: 600, checkTimeoutSec: 30 });
    expect(withSuiteSettings(bounded, merged)).toEqual(merged);
  });

  it("merges env name by name, the case's values winning", () => {
    const merged = withSuiteSettings(suite, { id: 'c', prompt: 'p', checks: [], env: { B: 'case', C: 'case' } });
    expect(merged.env).toEqual({ A: 'suite', B: 'case', C: 'case' });
    expect(suite.env).toEqual({ A: 'suite', B: 'suite' });
  });

  it("gives a case without env the suite's, and one without a suite env its own", () => {
    expect(withSuiteSettings(suite, { id: 'c', prompt: 'p', checks: [] }).env).toEqual({ A: 'suite', B: 'suite' });
    expect(
      withSuiteSettings({ name: 's', cases: [] }, { id: 'c', prompt: 'p', checks: [], env: { C: '1' } }).env,
    ).toEqual({
      C: '1',
    });
  });

  it("replaces the suite's allowEnv with the case's own, as every other setting", () => {
    expect(withSuiteSettings(suite, { id: 'c', prompt: 'p', checks: [], allowEnv: ['CASE_KEY'] })).toMatchObject({
      allowEnv: ['CASE_KEY'],
      git: true,
    });
  });
});
