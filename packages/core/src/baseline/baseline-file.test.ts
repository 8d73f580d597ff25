import { describe, expect, it } from 'vitest';
import {
  baselineEntry,
  baselinePathFor,
  emptyBaseline,
  isBaselinePath,
  renderBaseline,
  suitePathOf,
} from './baseline-file.js';
import { parseBaseline } from './parse-baseline.js';

describe('baseline file names', () => {
  it('puts the baseline beside its suite, and tells it from a suite', () => {
    expect(baselinePathFor('bench/fix-bug.bench.json')).toBe('bench/fix-bug.bench.baseline.json');
    expect(suitePathOf('bench/fix-bug.bench.baseline.json')).toBe('bench/fix-bug.bench.json');
    expect(isBaselinePath('bench/fix-bug.bench.baseline.json')).toBe(true);
    expect(isBaselinePath('bench/fix-bug.bench.json')).toBe(false);
    // The plugin's default include, **/*.bench.json, never matches a baseline file.
    expect(baselinePathFor('x.bench.json').endsWith('.bench.json')).toBe(false);
  });
});

describe('renderBaseline', () => {
  it('writes the same bytes for the same results, whatever order they came in', () => {
    const one = emptyBaseline('majority');
    one.cases.zeta = { passes: 0, trials: 1, outcome: 'failed' };
    one.cases.alpha = { passes: 1, trials: 1, outcome: 'passed' };
    one.agents.mine = { b: { passes: 2, trials: 3 }, a: { passes: 3, trials: 3 } };
    const two = emptyBaseline('majority');
    two.agents.mine = { a: { passes: 3, trials: 3 }, b: { passes: 2, trials: 3 } };
    two.cases.alpha = { passes: 1, trials: 1, outcome: 'passed' };
    two.cases.zeta = { passes: 0, trials: 1, outcome: 'failed' };
    const text = renderBaseline(one, 's.bench.json');
    expect(renderBaseline(two, 's.bench.json')).toBe(text);
    expect(text.endsWith('}\n')).toBe(true);
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toEqual(['$comment', 'gzBenchBaseline', 'passRule', 'cases', 'agents']);
    expect(Object.keys(parsed.cases)).toEqual(['alpha', 'zeta']);
    expect(Object.keys(parsed.agents.mine)).toEqual(['a', 'b']);
    expect(parsed.agents.mine.b).toEqual({ passes: 2, trials: 3 });
  });

  it('round-trips case ids and agent names with odd characters, __proto__ included', () => {
    const baseline = emptyBaseline(0.6);
    const ids = ['__proto__', 'constructor', 'a "quoted" id', 'zeilen\numbruch', '日本語 🚀', '</script>'];
    for (const [index, id] of ids.entries()) {
      Object.defineProperty(baseline.cases, id, {
        value: { passes: index % 2, trials: 1, outcome: index % 2 ? 'passed' : 'failed' },
        enumerable: true,
      });
    }
    Object.defineProperty(baseline.agents, '__proto__', { value: { x: { passes: 1, trials: 2 } }, enumerable: true });
    const back = parseBaseline(renderBaseline(baseline, 's.bench.json'), 's.bench.baseline.json');
    expect(back.passRule).toBe(0.6);
    for (const [index, id] of ids.entries()) {
      expect(baselineEntry(back, undefined, id)).toEqual({
        passes: index % 2,
        trials: 1,
        outcome: index % 2 ? 'passed' : 'failed',
      });
    }
    expect(Object.getPrototypeOf(back.cases)).toBe(Object.prototype);
    expect(baselineEntry(back, '__proto__', 'x')).toEqual({ passes: 1, trials: 2 });
    expect(baselineEntry(back, undefined, 'toString')).toBeUndefined();
  });
});
