import { describe, expect, it } from 'vitest';
import { CellRuleError, cellPasses, describeCellRule, parseCellRule } from './cell-rule.js';

describe('cellPasses', () => {
  it('majority needs strictly more than half', () => {
    expect(cellPasses(3, 5, 'majority')).toBe(true); // 6 > 5
    expect(cellPasses(2, 5, 'majority')).toBe(false); // 4 > 5 is false
    expect(cellPasses(2, 4, 'majority')).toBe(false); // exactly half: 4 > 4 is false
    expect(cellPasses(3, 4, 'majority')).toBe(true);
    expect(cellPasses(1, 1, 'majority')).toBe(true);
    expect(cellPasses(0, 1, 'majority')).toBe(false);
  });

  it('all needs every trial, any needs one', () => {
    expect(cellPasses(5, 5, 'all')).toBe(true);
    expect(cellPasses(4, 5, 'all')).toBe(false);
    expect(cellPasses(1, 5, 'any')).toBe(true);
    expect(cellPasses(0, 5, 'any')).toBe(false);
  });

  it('a fraction needs at least that share', () => {
    expect(cellPasses(3, 5, 0.6)).toBe(true); // 3/5 = 0.6 ≥ 0.6
    expect(cellPasses(2, 5, 0.6)).toBe(false); // 0.4
    expect(cellPasses(2, 4, 0.5)).toBe(true); // exactly half passes 0.5 but not majority
    expect(cellPasses(7, 10, 0.7)).toBe(true); // 7/10 and 0.7 round to the same double
    expect(cellPasses(4, 5, 1)).toBe(false);
    expect(cellPasses(5, 5, 1)).toBe(true);
  });

  it('refuses counts and fractions that make no sense', () => {
    expect(() => cellPasses(6, 5, 'any')).toThrow(new RangeError('passes (6) exceeds trials (5)'));
    expect(() => cellPasses(0, 0, 'any')).toThrow(RangeError);
    expect(() => cellPasses(1, 2, 0)).toThrow(new RangeError('a fractional cell rule must lie in (0, 1], got 0'));
    expect(() => cellPasses(1, 2, 1.5)).toThrow(RangeError);
  });
});

describe('parseCellRule', () => {
  it.each([
    ['majority', 'majority'],
    ['all', 'all'],
    [' ANY ', 'any'],
    ['0.6', 0.6],
    ['.25', 0.25],
    ['1', 1],
    ['60%', 0.6],
    ['12.5%', 0.125],
    ['100%', 1],
  ])('reads %j', (text, rule) => {
    expect(parseCellRule(text)).toBe(rule);
  });

  it('takes a number as a fraction', () => {
    expect(parseCellRule(0.75)).toBe(0.75);
    expect(() => parseCellRule(2)).toThrow('invalid cell rule 2: use majority, all, any');
  });

  it.each(['', 'most', '0', '0%', '1.5', '150%', '-0.5', '60 %', '0x1', '1e-1', 'NaN', 'Infinity'])(
    'refuses %j with what is accepted',
    (text) => {
      expect(() => parseCellRule(text)).toThrow(CellRuleError);
      expect(() => parseCellRule(text)).toThrow(
        `invalid cell rule "${text}": use majority, all, any, a fraction in (0, 1] such as 0.6, or a percentage such as 60%`,
      );
    },
  );
});

describe('describeCellRule', () => {
  it('says each rule in words', () => {
    expect(describeCellRule('majority')).toBe('more than half of its trials pass');
    expect(describeCellRule('all')).toBe('every trial passes');
    expect(describeCellRule('any')).toBe('at least one trial passes');
    expect(describeCellRule(0.07)).toBe('at least 7% of its trials pass');
    expect(describeCellRule(2 / 3)).toBe('at least 66.6667% of its trials pass');
  });
});
