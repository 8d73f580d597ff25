// The baseline of the per-case overhead rows: a plain Node loop doing the least any harness must do
// for the trivial case, with the same containment as gz-bench's sandbox mode. Run as its own process,
// like the CLI, so that both include a Node start-up:
//   node plain-loop.mjs <cases> <containment argv prefix, as JSON> <info-fd|no-info-fd>
// The prefix is core's (containment.mjs), made by the perf script with the placeholders {{area}},
// {{workspace}} and {{promptFile}}: the loop itself imports nothing, so its start-up is Node's.
// With info-fd, fd 3 is a pipe, as gz-bench gives bwrap for its --info-fd.
// Per case: mkdtemp an area (workspace/ and a read-only prompt.txt, as gz-bench lays it out), one
// `/bin/sh -c` spawn of the agent command in its own process group through the prefix, the four
// checks (fileExists and fileContains read the file directly; the `command` check is a shell command,
// so it is one more contained `/bin/sh -c` spawn; outputMatches tests the captured output), rm -rf.
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRIVIAL_CMD, TRIVIAL_COMMAND_CHECK, TRIVIAL_FILE, TRIVIAL_OUTPUT, TRIVIAL_TEXT } from './trivial.mjs';

const [countText = '1', prefixText = '[]', infoFd = 'no-info-fd'] = process.argv.slice(2);
const count = Number(countText);
const prefix = JSON.parse(prefixText);
const prefixOf = (area, workspace, promptFile) => {
  const places = { '{{area}}': area, '{{workspace}}': workspace, '{{promptFile}}': promptFile };
  return prefix.map((arg) => arg.replace(/\{\{(area|workspace|promptFile)\}\}/g, (name) => places[name]));
};

/** Runs `line` under the mode's containment; resolves with its exit code and combined output. */
function contained(line, area, workspace, promptFile) {
  const argv = [...prefixOf(area, workspace, promptFile), '/bin/sh', '-c', line];
  const [file, ...args] = argv;
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: workspace,
      detached: true,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: area, TMPDIR: area },
      stdio: ['ignore', 'pipe', 'pipe', ...(infoFd === 'info-fd' ? ['pipe'] : [])],
    });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.stdio[3]?.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

let passed = 0;
for (let index = 0; index < count; index += 1) {
  const area = await realpath(await mkdtemp(join(tmpdir(), 'plain-loop-')));
  const workspace = join(area, 'workspace');
  const promptFile = join(area, 'prompt.txt');
  await mkdir(workspace);
  await writeFile(promptFile, 'Write out.txt');
  await chmod(promptFile, 0o444);
  const agent = await contained(TRIVIAL_CMD, area, workspace, promptFile);
  const file = join(workspace, TRIVIAL_FILE);
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  const contains = exists && (await readFile(file, 'utf8')).includes(TRIVIAL_TEXT);
  const command = contains && (await contained(TRIVIAL_COMMAND_CHECK, area, workspace, promptFile)).code === 0;
  if (command && new RegExp(TRIVIAL_OUTPUT).test(agent.output)) passed += 1;
  await rm(area, { recursive: true, force: true });
}
if (passed !== count) {
  process.stderr.write(`plain loop: ${count - passed} of ${count} trivial cases failed\n`);
  process.exit(1);
}
