import { describe, expect, it } from 'vitest';
import { columnName, parseColumn, suiteColumns } from './arm-columns.js';

describe('arm columns', () => {
  it('multiply each agent by the arms, the run’s arms replacing the suite’s', () => {
    const suite = { arms: { none: [], v1: ['skills/pdf'] } };
    expect(suiteColumns(suite, ['a', 'b'])).toEqual([
      { agentName: 'a', arm: 'none' },
      { agentName: 'a', arm: 'v1' },
      { agentName: 'b', arm: 'none' },
      { agentName: 'b', arm: 'v1' },
    ]);
    expect(suiteColumns(suite, [], ['v2'])).toEqual([{ arm: 'v2' }]);
    expect(suiteColumns(suite, ['a'], [])).toEqual([{ agentName: 'a' }]);
    expect(suiteColumns(undefined, [])).toEqual([{}]);
  });

  it('are named agent/arm, and an agent name with / still parses back', () => {
    expect(columnName({ agentName: 'openai/gpt', arm: 'v1' })).toBe('openai/gpt/v1');
    expect(columnName({ arm: 'v1' })).toBe('v1');
    expect(columnName({ agentName: 'a' })).toBe('a');
    expect(columnName({})).toBeUndefined();
    expect(parseColumn('openai/gpt/v1', { agents: true, arms: true })).toEqual({ agentName: 'openai/gpt', arm: 'v1' });
    expect(parseColumn('openai/gpt', { agents: true, arms: false })).toEqual({ agentName: 'openai/gpt' });
    expect(parseColumn('v1', { agents: false, arms: true })).toEqual({ arm: 'v1' });
  });
});
