import { expect } from 'vitest';
import type { AgentDefinition } from '../../packages/core/src/agents/definition.js';
import type { OfflineRun } from '../support/agent-cli.js';

/** Whether an allowEnv entry (a name or a `PREFIX_*` pattern) lets `name` through. */
function allows(entry: string, name: string): boolean {
  return entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : entry === name;
}

/** Every variable a test points the agent with must be one the preset lets through from the user. */
export function expectAllowed(definition: AgentDefinition, names: string[]): void {
  const refused = names.filter((name) => !(definition.allowEnv ?? []).some((entry) => allows(entry, name)));
  expect(refused, `variables the preset's allowEnv does not let through`).toEqual([]);
}

/** The run ended by itself with exit code 0; on failure the message shows what the agent said. */
export function expectCleanExit(run: OfflineRun, stdout: string): void {
  expect(
    { exitCode: run.exitCode, timedOut: run.timedOut },
    `stderr:\n${run.stderr.slice(-3000)}\nstdout:\n${stdout.slice(-3000)}`,
  ).toEqual({ exitCode: 0, timedOut: false });
}

/** The endpoint answered each scripted step (every one, in order) and saw nothing it does not serve. */
export function expectScriptPlayed(run: OfflineRun, steps: number): void {
  expect(run.endpoint.unknown).toEqual([]);
  const played = [
    ...new Set(run.endpoint.requests.flatMap((request) => (request.step === undefined ? [] : [request.step]))),
  ];
  expect(played).toEqual(Array.from({ length: steps }, (_, index) => index));
}
