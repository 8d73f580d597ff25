import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { type AgentDefinition, findOnPath, presetSpec, programOf, unsafeFlags } from '@gz-bench/core';

/** How long `<agent> --version` may take before doctor stops waiting for it. */
export const VERSION_TIMEOUT_MS = 10_000;

/** Where doctor looks: the harness's environment, its working directory and the user's HOME. */
export interface ReadinessContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  home: string;
}

/** One agent as `gz-bench doctor` finds it. Names of variables only, never their values. */
export interface AgentReadiness {
  name: string;
  cmd: string;
  preset?: string;
  program: string;
  /** Where the program was found; undefined when it was not. */
  found?: { path: string; via: 'path' | 'node_modules' | 'file' };
  /** The first line `--version` printed (presets only: a command of the user's own is never run). */
  version?: string;
  versionProblem?: string;
  /** Each `allowEnv` entry and the names it lets through that are set. */
  env: Array<{ entry: string; set: string[] }>;
  /** The login files under HOME and whether each exists. */
  login: Array<{ path: string; exists: boolean }>;
  unsafe: string[];
  missing: string[];
  ready: boolean;
}

/** The current process's context. */
export function processContext(): ReadinessContext {
  return { env: process.env, cwd: process.cwd(), home: process.env.HOME || homedir() };
}

/** Finds out whether an agent can run here: its program, version, variables and login. */
export async function agentReadiness(agent: AgentDefinition, context: ReadinessContext): Promise<AgentReadiness> {
  const spec = agent.preset === undefined ? undefined : presetSpec(agent.preset);
  const program = programOf(agent.cmd);
  const found = program === undefined ? undefined : locate(program, context);
  const missing: string[] = [];
  if (program === undefined) missing.push('the command names no program');
  else if (!found) {
    const install = spec ? `; install it: npm install -g ${spec.npmPackage} (or as a devDependency)` : '';
    missing.push(`${program}: not on PATH nor in node_modules/.bin${install}`);
  }
  const env = (agent.allowEnv ?? []).map((entry) => ({ entry, set: setNames(entry, context.env) }));
  const login = (agent.login ?? []).map((path) => ({ path, exists: existsSync(join(context.home, path)) }));
  if (spec && spec.credentials.length > 0) {
    const hasKey = spec.credentials.some((name) => isSet(context.env, name));
    // The first login file is the credentials; the others are state that goes with them.
    const credentialsFile = login[0];
    if (!hasKey && !credentialsFile?.exists) {
      const loginHint = credentialsFile === undefined ? '' : `, or log in (~/${credentialsFile.path})`;
      missing.push(`credentials: set ${orList(spec.credentials)}${loginHint}`);
    }
  }
  const readiness: AgentReadiness = {
    name: agent.name,
    cmd: agent.cmd,
    ...(agent.preset === undefined ? {} : { preset: agent.preset }),
    program: program ?? '',
    ...(found ? { found } : {}),
    env,
    login,
    unsafe: unsafeFlags(agent.cmd),
    missing,
    ready: missing.length === 0,
  };
  if (found && spec) {
    const version = await programVersion(found.path, agent.env ?? {}, context);
    if ('version' in version) readiness.version = version.version;
    else readiness.versionProblem = version.problem;
  }
  return readiness;
}

function locate(program: string, context: ReadinessContext): AgentReadiness['found'] {
  if (program.includes('/')) {
    const path = isAbsolute(program) ? program : resolve(context.cwd, program);
    return existsSync(path) ? { path, via: 'file' } : undefined;
  }
  const onPath = findOnPath(program, context.env.PATH ?? '');
  if (onPath) return { path: onPath, via: 'path' };
  // Installed as a devDependency: found where npx and pnpm exec would find it.
  for (let dir = context.cwd; ; dir = dirname(dir)) {
    const candidate = findOnPath(program, join(dir, 'node_modules', '.bin'));
    if (candidate) return { path: candidate, via: 'node_modules' };
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * `<program> --version`, with the preset's constants (telemetry and updates off), the harness's PATH
 * and a throwaway HOME, so that asking writes nothing into the user's.
 */
async function programVersion(
  path: string,
  constants: Record<string, string>,
  context: ReadinessContext,
): Promise<{ version: string } | { problem: string }> {
  const home = await mkdtemp(join(tmpdir(), 'gz-bench-doctor-'));
  try {
    const binDir = dirname(path);
    const env = {
      PATH: [binDir, context.env.PATH ?? ''].filter((part) => part !== '').join(delimiter),
      HOME: home,
      TMPDIR: home,
      LANG: context.env.LANG ?? 'C.UTF-8',
      ...constants,
    };
    return await new Promise((done) => {
      const child = spawn(path, ['--version'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        if (stdout.length < 4096) stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 4096) stderr += chunk.toString();
      });
      const timer = setTimeout(() => {
        killGroup(child.pid);
        done({ problem: `--version did not answer within ${VERSION_TIMEOUT_MS / 1000}s` });
      }, VERSION_TIMEOUT_MS);
      child.on('error', (error) => {
        clearTimeout(timer);
        done({ problem: `could not run it: ${error.message}` });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        killGroup(child.pid);
        const line = firstLine(stdout) ?? firstLine(stderr);
        if (code === 0 && line !== undefined) done({ version: line });
        else done({ problem: `--version exited with ${code}${line === undefined ? '' : `: ${line}`}` });
      });
    });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {}
}

function firstLine(text: string): string | undefined {
  const line = text
    .split(/\r?\n/)
    .map((each) => each.trim())
    .find((each) => each !== '');
  return line === undefined ? undefined : line.slice(0, 200);
}

/** The names among the environment's that an allowEnv entry lets through and that are set. */
function setNames(entry: string, env: NodeJS.ProcessEnv): string[] {
  if (!entry.endsWith('*')) return isSet(env, entry) ? [entry] : [];
  const prefix = entry.slice(0, -1);
  return Object.keys(env)
    .filter((name) => name.startsWith(prefix) && isSet(env, name))
    .sort();
}

function isSet(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name];
  return value !== undefined && value !== '';
}

function orList(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}
