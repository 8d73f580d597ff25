// The floor of the concurrency rows: a plain Node loop that runs the same cases as gz-bench at the
// same limit, doing the least any harness must for each, with the same containment as gz-bench's
// `--sandbox none`. What the cases' own commands cost on the machine (a shell, two `date`, a
// `sleep`, started by the dozen at once) sets how close to the ideal any harness can come.
//   node concurrent-loop.mjs <cases> <limit> <containment argv prefix, as JSON> <command>
// The prefix is core's (containment.mjs), with the placeholders {{area}}, {{workspace}} and
// {{promptFile}}. Per case: mkdtemp an area (workspace/ and a read-only prompt.txt, as gz-bench lays
// it out), one contained `/bin/sh -c` spawn of the command in its own process group, its output
// drained, rm -rf. At most <limit> cases at once; a case starts as soon as another one ends.
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [countText = '1', limitText = '1', prefixText = '[]', command = 'true'] = process.argv.slice(2);
const count = Number(countText);
const limit = Number(limitText);
const prefix = JSON.parse(prefixText);
const prefixOf = (area, workspace, promptFile) => {
  const places = { '{{area}}': area, '{{workspace}}': workspace, '{{promptFile}}': promptFile };
  return prefix.map((arg) => arg.replace(/\{\{(area|workspace|promptFile)\}\}/g, (name) => places[name]));
};

/** Runs one case; resolves with the command's exit code. */
async function runCase() {
  const area = await realpath(await mkdtemp(join(tmpdir(), 'concurrent-loop-')));
  const workspace = join(area, 'workspace');
  const promptFile = join(area, 'prompt.txt');
  await mkdir(workspace);
  await writeFile(promptFile, 'Sleep for a second');
  await chmod(promptFile, 0o444);
  const [file, ...args] = [...prefixOf(area, workspace, promptFile), '/bin/sh', '-c', command];
  const code = await new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: workspace,
      detached: true,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: area, TMPDIR: area },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', resolve);
  });
  await rm(area, { recursive: true, force: true });
  return code;
}

let started = 0;
let failed = 0;
const lane = async () => {
  while (started < count) {
    started += 1;
    if ((await runCase()) !== 0) failed += 1;
  }
};
await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
if (failed > 0) {
  process.stderr.write(`concurrent loop: ${failed} of ${count} cases failed\n`);
  process.exit(1);
}
