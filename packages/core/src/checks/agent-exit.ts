import type { CheckDefinition } from './types.js';

/** `agentExit`: passes when the agent command exited with `expectExit` (default 0). */
export const agentExitCheck: CheckDefinition<'agentExit'> = {
  kind: 'agentExit',
  async evaluate(check, { agentExit }) {
    const expected = check.expectExit ?? 0;
    if (agentExit === undefined) return { passed: false, message: 'no agent ran, so it has no exit code' };
    const { exitCode, signal } = agentExit;
    const details = { exitCode };
    if (exitCode === expected) return { passed: true, details };
    if (exitCode !== null)
      return { passed: false, message: `agent exited with ${exitCode}, expected ${expected}`, details };
    const how = signal === null ? 'ended without an exit code' : `was killed by ${signal}`;
    return { passed: false, message: `agent ${how}, expected exit ${expected}`, details };
  },
};
