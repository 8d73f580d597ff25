import { join } from 'node:path';
import { composeServices } from './compose.js';
import { readDockerfile } from './dockerfile.js';
import { testScriptNeeds } from './script-needs.js';
import type { TaskDraft } from './task-draft.js';
import { TaskFields, taskError } from './task-error.js';
import { contextEntries, displayOf, parserReason, readTaskText, requireFile } from './task-files.js';

// Harbor's layout (also Terminal-Bench 2's): task.toml, instruction.md, tests/test.sh and its files,
// solution/solve.sh, environment/Dockerfile. Harbor runs `bash /tests/test.sh` in the container's
// working directory, and its verdict is the reward the script writes to /logs/verifier.

/** Reads a Harbor task directory; `display` is how messages name it. */
export async function readHarborTask(dir: string, display: string): Promise<TaskDraft> {
  const { parse } = await import('smol-toml');
  const tomlFile = join(dir, 'task.toml');
  const tomlDisplay = displayOf(display, 'task.toml');
  let data: Record<string, unknown>;
  try {
    data = parse(await readTaskText(tomlFile, tomlDisplay)) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof Error) || error.name === 'SuiteError') throw error;
    const line = (error as { line?: number }).line;
    const reason = parserReason(error);
    throw taskError(tomlDisplay, undefined, `not valid TOML${line === undefined ? '' : ` (line ${line})`}: ${reason}`);
  }
  const toml = new TaskFields(tomlDisplay, data, '');
  const metadata = toml.section('metadata');
  const agent = toml.section('agent');
  const verifier = toml.section('verifier');
  const environmentTable = toml.section('environment');

  // The settings first, then the files: a user fixes the one file before looking for the others.
  const settings = {
    ...optional('agentTimeoutSec', agent.seconds('timeout_sec')),
    ...optional('checkTimeoutSec', verifier.seconds('timeout_sec')),
    ...optional('difficulty', metadata.string('difficulty')),
    ...optional('category', metadata.string('category')),
    tags: metadata.strings('tags'),
    ...optional('internet', environmentTable.boolean('allow_internet')),
  };
  const author = metadata.string('author_name');
  const image = environmentTable.string('docker_image');
  const verifierEnv = verifier.stringTable('env');
  for (const name of Object.keys(verifierEnv)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw verifier.error(`env.${name}`, 'must be a variable name');
  }
  const instruction = await readTaskText(
    join(dir, 'instruction.md'),
    displayOf(display, 'instruction.md'),
    "a Harbor task's instruction",
  );
  await requireFile(join(dir, 'tests', 'test.sh'), displayOf(display, 'tests/test.sh'), "a Harbor task's test script");
  const solve = join(dir, 'solution', 'solve.sh');
  const hasSolution = await requireFile(solve, displayOf(display, 'solution/solve.sh'), undefined);

  const contextDir = join(dir, 'environment');
  const dockerfile = await readTaskText(join(contextDir, 'Dockerfile'), displayOf(display, 'environment/Dockerfile'), {
    optional: true,
  });
  const environment = readDockerfile(dockerfile ?? '', await contextEntries(contextDir, []));
  const beyondImage = [
    ...(image === undefined ? [] : [`the image ${image} (environment.docker_image)`]),
    ...(await composeServices(contextDir, displayOf(display, 'environment'))),
    ...(await testScriptNeeds(join(dir, 'tests', 'test.sh'), [join(dir, 'tests')])),
  ];
  return {
    format: 'harbor',
    dir,
    instruction,
    verify: [join(dir, 'tests')],
    check: `${envPrefix(verifierEnv)}bash /tests/test.sh`,
    ...(hasSolution && { solution: { lines: ['bash /solution/solve.sh'], files: [join(dir, 'solution')] } }),
    ...settings,
    meta: author === undefined ? {} : { author },
    contextDir,
    environment,
    ...(dockerfile !== undefined && { dockerfile: { path: join(contextDir, 'Dockerfile'), ignore: [] } }),
    beyondImage,
  };
}

/** `NAME='value' ` for each of the verifier's variables, quoted for the shell. */
export function envPrefix(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([name, value]) => `${name}=${shellQuote(value)} `)
    .join('');
}

export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** `{ key: value }` when value is defined, `{}` otherwise: for spreading optional fields. */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
