import { describe, expect, it } from 'vitest';
import { BaselineError, parseBaseline } from './parse-baseline.js';

const FILE = 'bench/s.bench.baseline.json';
const valid = { gzBenchBaseline: 1, passRule: 'majority', cases: { a: { passes: 1, trials: 1, outcome: 'passed' } } };

function refusal(data: unknown): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  try {
    parseBaseline(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(BaselineError);
    const message = (error as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message.startsWith(`${FILE}: invalid baseline`)).toBe(true);
    expect(message.endsWith('write it anew with vitest run -u (gz-bench run --update)')).toBe(true);
    return message;
  }
  throw new Error('the baseline was accepted');
}

describe('parseBaseline', () => {
  it('reads a valid file', () => {
    expect(parseBaseline(JSON.stringify(valid), FILE)).toEqual({
      passRule: 'majority',
      cases: { a: { passes: 1, trials: 1, outcome: 'passed' } },
      agents: {},
    });
  });

  it('refuses every hand edit it could misjudge, in one line that says where', () => {
    expect(refusal('{"gzBenchBaseline": 1,')).toContain('not JSON');
    expect(refusal('[]')).toContain('not a JSON object');
    expect(refusal({ ...valid, gzBenchBaseline: 2 })).toContain('at gzBenchBaseline: must be 1, got 2');
    expect(refusal({ ...valid, extra: true })).toContain('at "extra": unknown key');
    expect(refusal({ ...valid, passRule: 'most' })).toContain('at passRule: must be majority');
    expect(refusal({ ...valid, cases: { a: { passes: 4, trials: 3 } } })).toContain(
      'at cases["a"].passes: 4 passes of 3 trials',
    );
    expect(refusal({ ...valid, cases: { a: { passes: 1, trials: 0 } } })).toContain('at cases["a"].trials');
    expect(refusal({ ...valid, cases: { a: { passes: -1, trials: 1 } } })).toContain('at cases["a"].passes');
    expect(refusal({ ...valid, cases: { a: { passes: 1.5, trials: 2 } } })).toContain('at cases["a"].passes');
    expect(refusal({ ...valid, cases: { a: { passes: 1, trials: 1, outcome: 'failed' } } })).toContain(
      '"failed" does not go with 1 passes of 1 trials',
    );
    expect(refusal({ ...valid, cases: { a: { passes: 1, trials: 1, outcome: 'great' } } })).toContain(
      'unknown outcome "great"',
    );
    expect(refusal({ ...valid, agents: { mine: { 'x y': 'passed' } } })).toContain(
      'at agents["mine"]["x y"]: must be an object { passes, trials }',
    );
    expect(refusal({ ...valid, agents: [] })).toContain('at agents: must be an object of agents');
  });
});
