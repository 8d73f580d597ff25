import { describe, expect, it } from 'vitest';
import { tagsFilterProblem } from './tags-filter.js';

const KNOWN = ['python', 'hard', 'lang:py', 'demand'];

describe('tagsFilterProblem', () => {
  it("accepts Vitest's grammar: && || ! and, or, not, parentheses and wildcards", () => {
    for (const expr of [
      'python',
      'python && !hard',
      'python and not hard',
      '(python || hard) && !lang:py',
      'py*',
      'demand or hard',
      '!(python)',
    ]) {
      expect(tagsFilterProblem(expr, KNOWN), expr).toBeUndefined();
    }
  });

  it('says where a malformed expression breaks', () => {
    expect(tagsFilterProblem('python &&', KNOWN)).toBe('--tags-filter "python &&": unexpected end of expression');
    expect(tagsFilterProblem('python hard', KNOWN)).toBe('--tags-filter "python hard": unexpected hard');
    expect(tagsFilterProblem('(python', KNOWN)).toBe('--tags-filter "(python": missing ")" before end of expression');
    expect(tagsFilterProblem('python)', KNOWN)).toBe('--tags-filter "python)": unexpected )');
    expect(tagsFilterProblem('a | b', KNOWN)).toBe('--tags-filter "a | b": unexpected "|" (use && or ||)');
  });

  it('names a tag or pattern no case has, with the tags there are', () => {
    expect(tagsFilterProblem('rust', KNOWN)).toBe(
      '--tags-filter "rust": no case has the tag "rust" (the suites\' tags are python, hard, lang:py, demand)',
    );
    expect(tagsFilterProblem('go*', KNOWN)).toContain('no case has a tag matching "go*"');
    expect(tagsFilterProblem('x', [])).toBe('--tags-filter "x": no case has the tag "x" (the suites have no tags)');
  });
});
