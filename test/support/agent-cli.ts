import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentDefinition } from '../../packages/core/src/agents/definition.js';
import { promptEnv } from '../../packages/core/src/case/prompt-delivery.js';
import { renderTemplate } from '../../packages/core/src/template/render-template.js';
import { type ModelEndpoint, type ModelScript, startModelEndpoint } from './model-endpoint/index.js';
import { reachableCheckout } from './other-user.js';
import { REPO_ROOT } from './paths.js';

const BRIDGE = join('test', 'support', 'model-endpoint', 'netns-bridge.mjs');
const NOBODY = 65534;

/** Who runs the agent: the user running the tests, or `nobody` (when the tests run as root). */
export type AgentUser = 'self' | 'nobody';

/** How one offline run of a real agent CLI ended. */
export interface OfflineRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** The file holding the agent's whole stdout, alone. */
  stdoutFile: string;
  stderr: string;
  workspace: string;
  home: string;
  endpoint: ModelEndpoint;
}

/** What an offline run needs. */
export interface OfflineRunOptions {
  definition: AgentDefinition;
  script: ModelScript | ((workspace: string) => ModelScript);
  /** Variables that point the CLI at the endpoint (base URL, a dummy key), from its origin. */
  endpointEnv: (origin: string) => Record<string, string>;
  prompt: string;
  timeoutMs: number;
  user?: AgentUser;
  /**
   * Called once the workspace and the HOME exist (the preset's home files written) and before the
   * agent starts, e.g. to install skills. What it writes there is removed with the area.
   */
  prepare?: (dirs: { workspace: string; home: string }) => Promise<void>;
}

/**
 * Why real agent CLIs cannot run offline here (no network namespace can be made), or undefined.
 * Their tests never run them with a network: they skip with this reason instead.
 */
export function offlineUnavailable(user: AgentUser = 'self'): string | undefined {
  if (user === 'nobody' && process.getuid?.() !== 0) return 'running as nobody needs root';
  try {
    execFileSync(netnsPrefix(user)[0] ?? 'unshare', [...netnsPrefix(user).slice(1), 'true'], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim().split('\n')[0] ?? String(error);
    return `cannot make a network namespace with only loopback here (${detail})`;
  }
}

/**
 * A command prefix that runs the rest in new network and pid namespaces with only loopback, up:
 * nothing the agent does reaches beyond this machine, and nothing it starts outlives it. As root it
 * stays root; otherwise (and for `nobody`) a user namespace maps the user to root just long enough to
 * bring loopback up, and a nested one maps it back to the user's own uid. `mountProc` also gives it a
 * mount namespace with a /proc of its own.
 */
export function netnsPrefix(user: AgentUser, options: { mountProc?: boolean } = {}): string[] {
  // A /proc of the new pid namespace's own, as a container has, for a command that reads pids there
  // (bwrap does); without it /proc is still the host's.
  const namespaces = ['--net', '--pid', '--fork', '--kill-child', ...(options.mountProc ? ['--mount-proc'] : [])];
  const loUp = 'ip link set lo up || exit 97; ';
  if (user === 'self' && process.getuid?.() === 0) {
    return ['unshare', ...namespaces, '--', 'sh', '-c', `${loUp}exec "$@"`, 'sh'];
  }
  const uid = user === 'nobody' ? NOBODY : (process.getuid?.() ?? NOBODY);
  const gid = user === 'nobody' ? NOBODY : (process.getgid?.() ?? NOBODY);
  const back = `exec unshare --user --map-user=${uid} --map-group=${gid} -- "$@"`;
  const inner = ['unshare', '--user', '--map-root-user', ...namespaces, '--', 'sh', '-c', `${loUp}${back}`, 'sh'];
  return user === 'nobody' ? ['runuser', '--preserve-environment', '-u', 'nobody', '--', ...inner] : inner;
}

/**
 * Runs an agent definition's command as gz-bench would (rendered template, `/bin/sh -c`, the workspace
 * as cwd, stdin closed, a fresh HOME seeded with its `home` files, its env constants), with stdout
 * alone into a file, against a scripted model endpoint reached through a network namespace that has
 * nothing else. The caller closes `endpoint` and removes the area with `dispose`.
 */
export async function runAgentOffline(options: OfflineRunOptions): Promise<OfflineRun & { dispose(): Promise<void> }> {
  const user = options.user ?? 'self';
  // nobody cannot reach a checkout under a private directory (mktemp -d, a 0700 home): it then runs
  // the CLIs and the bridge from a copy it can reach, made for this run.
  const checkout = user === 'nobody' && !reachableBy(user, REPO_ROOT) ? await reachableCheckout() : undefined;
  const root = checkout?.dir ?? REPO_ROOT;
  const area = await mkdtemp(join(tmpdir(), 'gzb-agent-cli-'));
  try {
    const run = await runIn(area, root, user, options);
    return {
      ...run,
      async dispose() {
        await run.dispose();
        await checkout?.dispose();
      },
    };
  } catch (error) {
    await rm(area, { recursive: true, force: true });
    await checkout?.dispose();
    throw error;
  }
}

async function runIn(
  area: string,
  root: string,
  user: AgentUser,
  options: OfflineRunOptions,
): Promise<OfflineRun & { dispose(): Promise<void> }> {
  await chmod(area, 0o755);
  const workspace = join(area, 'workspace');
  const home = join(area, 'home');
  const tmp = join(area, 'tmp');
  for (const dir of [workspace, home, tmp]) await mkdir(dir);
  for (const file of options.definition.home ?? []) {
    await mkdir(dirname(join(home, file.path)), { recursive: true });
    await writeFile(join(home, file.path), file.content);
  }
  await options.prepare?.({ workspace, home });
  const promptFile = join(area, 'prompt.txt');
  await writeFile(promptFile, options.prompt, { mode: 0o444 });
  // After `prepare`, so that what it wrote is nobody's too.
  if (user === 'nobody') {
    for (const path of [workspace, home, tmp]) execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, path]);
  }
  const socketPath = join(area, 'endpoint.sock');
  const script = typeof options.script === 'function' ? options.script(workspace) : options.script;
  const endpoint = await startModelEndpoint(script, { socketPath });
  const port = new URL(endpoint.origin).port;
  const stdoutFile = join(area, 'stdout');
  const stdout = await open(stdoutFile, 'w');
  const env: Record<string, string> = {
    PATH: [
      join(root, 'node_modules', '.bin'),
      dirname(process.execPath),
      '/usr/local/bin',
      '/usr/bin',
      '/bin',
      '/usr/sbin',
      '/sbin',
    ].join(':'),
    HOME: home,
    TMPDIR: tmp,
    LANG: 'C.UTF-8',
    ...options.definition.env,
    ...options.endpointEnv(endpoint.origin),
    // As gz-bench sets them: the text only where it fits in one variable.
    ...promptEnv(options.prompt, promptFile),
    GZ_BENCH_DIR: workspace,
  };
  const [program = 'unshare', ...prefix] = netnsPrefix(user);
  const argv = [
    ...prefix,
    process.execPath,
    join(root, BRIDGE),
    port,
    socketPath,
    '/bin/sh',
    '-c',
    renderTemplate(options.definition.cmd),
  ];
  const child = spawn(program, argv, { cwd: workspace, env, stdio: ['ignore', stdout.fd, 'pipe'], detached: true });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }, options.timeoutMs);
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.on('error', (error) => {
      stderr += `could not start ${program}: ${error.message}\n`;
      resolve([null, null]);
    });
    child.on('close', (code, closeSignal) => resolve([code, closeSignal]));
  });
  clearTimeout(timer);
  await stdout.close();
  return {
    exitCode,
    signal,
    timedOut,
    stdoutFile,
    stderr,
    workspace,
    home,
    endpoint,
    async dispose() {
      await endpoint.close();
      await rm(area, { recursive: true, force: true });
    },
  };
}

/** Whether `user` can read `dir` (every directory above it lets it through). */
function reachableBy(user: AgentUser, dir: string): boolean {
  if (user !== 'nobody') return true;
  try {
    execFileSync('runuser', ['-u', 'nobody', '--', 'test', '-r', join(dir, 'package.json')], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The text of a file in the workspace, or undefined when there is none. */
export async function workspaceFile(run: OfflineRun, path: string): Promise<string | undefined> {
  try {
    return await readFile(join(run.workspace, path), 'utf8');
  } catch {
    return undefined;
  }
}
