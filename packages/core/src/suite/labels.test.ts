import { describe, expect, it } from 'vitest';
import { caseMeta, caseTags, suiteTagNames, tagProblem } from './labels.js';

describe('tagProblem', () => {
  it('accepts words --tags-filter can name', () => {
    for (const name of [
      'python',
      'lang:py',
      'c++',
      'aider/polyglot',
      'v1.2',
      'size=large',
      'x_y-z',
      'Andromeda',
      '9',
    ]) {
      expect(tagProblem(name), name).toBeUndefined();
    }
  });

  it('refuses operators, spaces, wildcards and filter syntax, naming the tag', () => {
    expect(tagProblem('and')).toBe('tag "and" is an operator of --tags-filter (and, or, not); choose another name');
    expect(tagProblem('NOT')).toContain('is an operator of --tags-filter');
    for (const name of ['', 'two words', 'py*', '!hard', 'a&&b', 'a|b', '(x)', '-lead', '.dot', 'tab\there']) {
      expect(tagProblem(name), name).toBe(
        `tag ${JSON.stringify(name)} must start with a letter or digit and hold only letters, digits and _ . : / + = @ -`,
      );
    }
  });
});

describe('caseTags and caseMeta', () => {
  it("puts the suite's tags first, each once", () => {
    expect(caseTags({ tags: ['bench', 'python'] }, { tags: ['python', 'hard'] })).toEqual(['bench', 'python', 'hard']);
    expect(caseTags({}, {})).toEqual([]);
  });

  it("lets the case's keys win over the suite's, and is undefined when neither has meta", () => {
    expect(caseMeta({ meta: { a: 1, b: 'suite' } }, { meta: { b: 'case', c: null } })).toEqual({
      a: 1,
      b: 'case',
      c: null,
    });
    expect(caseMeta({}, {})).toBeUndefined();
    expect(caseMeta({}, { meta: {} })).toEqual({});
  });

  it('lists every tag of a suite once', () => {
    expect(suiteTagNames({ tags: ['s'], cases: [{ tags: ['a', 's'] }, {}, { tags: ['b', 'a'] }] })).toEqual([
      's',
      'a',
      'b',
    ]);
  });
});
