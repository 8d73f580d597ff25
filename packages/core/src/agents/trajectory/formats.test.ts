import { describe, expect, it } from 'vitest';
import {
  agentTrajectoryFormat,
  parseTrajectoryFormat,
  TRAJECTORY_FORMAT_NAMES,
  TrajectoryFormatError,
} from './formats.js';

describe('trajectory formats', () => {
  it('names the built-in streams that have steps', () => {
    expect(TRAJECTORY_FORMAT_NAMES).toEqual(expect.arrayContaining(['claude-code', 'codex', 'qwen']));
  });

  it('refuses an unknown name in one line that suggests the nearest', () => {
    expect(() => parseTrajectoryFormat('claude', 'agent "x": "trajectory"')).toThrow(
      new TrajectoryFormatError(
        `agent "x": "trajectory": unknown stream format "claude" (did you mean claude-code?); the formats are ${TRAJECTORY_FORMAT_NAMES.join(', ')}`,
      ),
    );
    expect(() => parseTrajectoryFormat(3)).toThrow(
      /^trajectory: expected the name of a stream format \(.*\) or false$/,
    );
    expect(() => parseTrajectoryFormat('__proto__')).toThrow(TrajectoryFormatError);
    expect(parseTrajectoryFormat('codex')).toBe('codex');
    expect(parseTrajectoryFormat(false)).toBe(false);
  });

  it("defaults to the built-in usage extractor's name, and reads none for false or another extractor", () => {
    expect(agentTrajectoryFormat({ usage: { builtin: 'claude-code' } })).toBe('claude-code');
    expect(agentTrajectoryFormat({ usage: { builtin: 'claude-code' }, trajectory: false })).toBeUndefined();
    expect(agentTrajectoryFormat({ usage: { regex: 'x' }, trajectory: 'qwen' })).toBe('qwen');
    expect(agentTrajectoryFormat({ usage: { jsonl: {} } })).toBeUndefined();
    expect(agentTrajectoryFormat({})).toBeUndefined();
  });
});
