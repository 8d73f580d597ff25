import { ownedEnvReason } from '../env/env-names.js';
import type { Case } from '../suite/schema.js';
import { agentGitEnv } from '../workspace/agent-git.js';
import type { CheckDirs } from '../workspace/check-dirs.js';
import { gitSafeEnv } from '../workspace/git-baseline.js';
import { caseEnv } from './agent-env.js';
import type { AgentSettings } from './agent-settings.js';

/** What the environments of a case's commands are made of. */
export interface CommandEnvInput {
  testCase: Case;
  /** The harness's environment. */
  source: NodeJS.ProcessEnv;
  home: string;
  tmp: string;
  /** The run's own `allowEnv` entries (plugin option, GZ_BENCH_ALLOW_ENV, --allow-env). */
  allowEnv?: readonly string[];
  agent?: AgentSettings;
  /** gz-bench's own variables (prompt, workspace, case token), over everything else. */
  own: Readonly<Record<string, string>>;
}

/** The environment of setup and checks, and that of the agent command. */
export interface CommandEnvs {
  steps: Record<string, string>;
  agent: Record<string, string>;
}

/**
 * Both environments of a case, from least to most binding: the harness's variables that pass (PATH…,
 * then `allowEnv`), the suite's and case's `env`, the case's HOME and temp dir, git's settings, then
 * gz-bench's own variables. Setup and checks run git with the safety settings (no hooks, no fsmonitor,
 * no global config); the agent runs it with its own git config, receives its own `allowEnv` too, and
 * its own `env` over everything but gz-bench's variables.
 */
export function commandEnvs(input: CommandEnvInput): CommandEnvs {
  const base = {
    source: input.source,
    home: input.home,
    tmp: input.tmp,
    realHome: input.testCase.realHome === true,
    ...(input.testCase.env && { constants: input.testCase.env }),
  };
  const shared = [...(input.testCase.allowEnv ?? []), ...(input.allowEnv ?? [])];
  // A check that runs git must not run hooks or an fsmonitor that the agent wrote into .git/config.
  const steps = { ...gitSafeEnv(caseEnv({ ...base, allowEnv: shared })), ...input.own };
  const agentOwn: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.agent?.env ?? {})) {
    // Checked by agentSettingsProblem: git's variables are the agent's to set, gz-bench's never.
    if (ownedEnvReason(name, 'agent') === undefined) agentOwn[name] = value;
  }
  const agentAllowEnv = [...shared, ...(input.agent?.allowEnv ?? [])];
  const agent = { ...agentGitEnv(caseEnv({ ...base, allowEnv: agentAllowEnv })), ...agentOwn, ...input.own };
  return { steps, agent };
}

/** The variable that names the agent's HOME to the checks, which run with one of their own. */
export const AGENT_HOME_ENV = 'GZ_BENCH_AGENT_HOME';

/**
 * The checks' environment: that of setup, with the checks' own HOME and temp dir (TMPDIR, TMP, TEMP),
 * and the agent's HOME named in `AGENT_HOME_ENV` for a check that inspects what the agent left there.
 */
export function checkPhaseEnv(env: Readonly<Record<string, string>>, dirs: CheckDirs): Record<string, string> {
  return {
    ...env,
    ...(env.HOME !== undefined && { [AGENT_HOME_ENV]: env.HOME }),
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    TMP: dirs.tmp,
    TEMP: dirs.tmp,
  };
}
