import { describe, expect, it } from 'vitest';
import { parseStrict } from './parse-args.js';
import { UsageError } from './usage-error.js';

const options = {
  cmd: { type: 'string' },
  json: { type: 'boolean' },
  'allow-env': { type: 'string', multiple: true },
} as const;

describe('parseStrict', () => {
  it('parses flags and positionals in any order', () => {
    expect(parseStrict(['a.json', '--cmd', 'x {{prompt}}', 'b.json', '--json'], options)).toEqual({
      values: { cmd: 'x {{prompt}}', json: true },
      positionals: ['a.json', 'b.json'],
    });
    expect(parseStrict(['--cmd=--weird'], options).values).toEqual({ cmd: '--weird' });
  });

  it('lets flags that collect values repeat', () => {
    expect(parseStrict(['--allow-env', 'A', '--allow-env=B'], options).values).toEqual({ 'allow-env': ['A', 'B'] });
  });

  it.each([
    [['--nope'], "Unknown option '--nope'"],
    [['--cmd', 'a', '--cmd', 'b'], '--cmd was given more than once'],
    [['--json', '--json'], '--json was given more than once'],
    [['--cmd'], "Option '--cmd <value>' argument missing"],
    [['--cmd='], '--cmd needs a non-empty value'],
    [['--json=yes'], "Option '--json' does not take an argument"],
  ])('rejects %j', (args, message) => {
    expect(() => parseStrict(args, options)).toThrow(UsageError);
    expect(() => parseStrict(args, options)).toThrow(message);
  });
});
