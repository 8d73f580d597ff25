// The description of the machine that heads the table: what the figures depend on.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';
import { probeSandbox } from '@gz-bench/core';
import { describeNoneContainment } from './containment.mjs';

function readOr(path, fallback) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
}

/** The file system type of the mount holding `path` (the deepest mount point that prefixes it). */
export function fileSystemOf(path) {
  let best = { point: '', type: 'unknown' };
  for (const line of readOr('/proc/self/mountinfo', '').split('\n')) {
    // <id> <parent> <major:minor> <root> <mount point> <options> [optional fields…] - <type> <source> …
    const [left, right] = line.split(' - ');
    const point = left?.split(' ')[4]?.replace(/\\040/g, ' ');
    const fsType = right?.split(' ')[0];
    if (point === undefined || fsType === undefined) continue;
    const covers = point === '/' || path === point || path.startsWith(`${point}/`);
    if (covers && point.length >= best.point.length) best = { point, type: fsType };
  }
  return best;
}

function osName() {
  const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readOr('/etc/os-release', ''))?.[1];
  return `${pretty ?? type()}, ${type()} ${release()}`;
}

function gitCommit(cwd) {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8', stdio: 'pipe' }).trim();
  } catch {
    return 'unknown';
  }
}

/** Whether bubblewrap works here, as gz-bench's own probe finds it. */
export async function sandboxState() {
  const probe = await probeSandbox();
  if (probe.available) return { available: true, text: `bwrap ${probe.version}` };
  return { available: false, reason: probe.reason, text: `none (${probe.reason})` };
}

/** Label/value pairs describing this machine and run. */
export async function describeMachine({ tmp, sandbox, root, core }) {
  const fs = fileSystemOf(tmp);
  const cpu = cpus()[0]?.model?.trim() ?? 'unknown';
  const containment = await describeNoneContainment(core);
  return [
    ['Cores', `${availableParallelism()} (${cpu})`],
    ['RAM', `${(totalmem() / 2 ** 30).toFixed(1)} GiB`],
    ['Node', process.version],
    ['OS', osName()],
    ['Temp dir', `${tmp} on ${fs.type} (mounted at ${fs.point})`],
    ['Sandbox', sandbox.text],
    ['Run as root', process.getuid?.() === 0 ? 'yes' : 'no'],
    ['Loop containment, `--sandbox none`', containment],
    [
      'Load average at start',
      loadavg()
        .map((load) => load.toFixed(2))
        .join(', '),
    ],
    ['Commit', gitCommit(root)],
  ];
}
