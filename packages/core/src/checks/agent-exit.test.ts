import { describe, expect, it } from 'vitest';
import { agentExitCheck } from './agent-exit.js';
import { memfsWorkspace } from './test-support/memfs-workspace.js';
import type { CheckContext } from './types.js';

const { context: files } = memfsWorkspace({ 'hello.txt': 'hi' });
const ended = (exitCode: number | null, signal: string | null = null): CheckContext => ({
  ...files,
  agentExit: { exitCode, signal },
});
const check = (expectExit?: number) => ({
  kind: 'agentExit' as const,
  ...(expectExit !== undefined && { expectExit }),
});

describe('agentExit', () => {
  it('passes when the agent exited 0, by default', async () => {
    await expect(agentExitCheck.evaluate(check(), ended(0))).resolves.toEqual({
      passed: true,
      details: { exitCode: 0 },
    });
  });

  it('passes when the agent exited with expectExit', async () => {
    await expect(agentExitCheck.evaluate(check(3), ended(3))).resolves.toEqual({
      passed: true,
      details: { exitCode: 3 },
    });
  });

  it('fails on another exit code, naming both', async () => {
    await expect(agentExitCheck.evaluate(check(), ended(1))).resolves.toEqual({
      passed: false,
      message: 'agent exited with 1, expected 0',
      details: { exitCode: 1 },
    });
    await expect(agentExitCheck.evaluate(check(2), ended(0))).resolves.toMatchObject({
      passed: false,
      message: 'agent exited with 0, expected 2',
    });
  });

  it('fails when a signal ended the agent, or it has no exit code', async () => {
    await expect(agentExitCheck.evaluate(check(), ended(null, 'SIGKILL'))).resolves.toEqual({
      passed: false,
      message: 'agent was killed by SIGKILL, expected exit 0',
      details: { exitCode: null },
    });
    await expect(agentExitCheck.evaluate(check(), ended(null))).resolves.toMatchObject({
      message: 'agent ended without an exit code, expected exit 0',
    });
  });

  it('fails, never passes, where no agent ran', async () => {
    await expect(agentExitCheck.evaluate(check(), files)).resolves.toEqual({
      passed: false,
      message: 'no agent ran, so it has no exit code',
    });
  });

  it('reads nothing of the workspace', async () => {
    const workspace = memfsWorkspace({ 'hello.txt': 'hi' });
    await agentExitCheck.evaluate(check(), { ...workspace.context, agentExit: { exitCode: 0, signal: null } });
    expect(workspace.opened).toEqual([]);
  });
});
