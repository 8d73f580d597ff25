import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Setup and checks run git with the safety settings of git-baseline.ts, among them no global config at
// all (GIT_CONFIG_GLOBAL=/dev/null): a check must not run hooks or an fsmonitor the agent wrote. The
// agent is another matter: it works in the repository like a developer, and `git commit` needs an
// identity. So its command gets git as in a fresh HOME of its own: the case HOME's .gitconfig, which
// names it, and no system config, which would make a run depend on the machine.

/** Who an agent's commits are by. `.invalid` is reserved (RFC 2606): no mail can go there. */
export const AGENT_GIT_IDENTITY = Object.freeze({ name: 'gz-bench agent', email: 'agent@gz-bench.invalid' });

/** The case HOME's .gitconfig: the agent's identity, and defaults that keep a commit from prompting or signing. */
export const AGENT_GIT_CONFIG = `# Written by gz-bench for this case's agent.
[user]
\tname = ${AGENT_GIT_IDENTITY.name}
\temail = ${AGENT_GIT_IDENTITY.email}
[init]
\tdefaultBranch = main
[commit]
\tgpgSign = false
[tag]
\tgpgSign = false
`;

/** Writes the agent's git config into a fresh case HOME (owner-only, like the rest of it). */
export async function writeAgentGitConfig(home: string): Promise<void> {
  // Synchronous, as the rest of the case area (case-area.ts).
  writeFileSync(join(home, '.gitconfig'), AGENT_GIT_CONFIG, { mode: 0o600, flag: 'wx' });
}

/**
 * The agent command's environment for git: `env` without any inherited `GIT_*` variable (a harness
 * started from a git hook carries GIT_DIR and GIT_INDEX_FILE), with no system config and no prompt for
 * credentials. Its global config is then `$HOME/.gitconfig` (or `$HOME/.config/git/config`).
 */
export function agentGitEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const agent: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (!name.toUpperCase().startsWith('GIT_')) agent[name] = value;
  return { ...agent, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
}
