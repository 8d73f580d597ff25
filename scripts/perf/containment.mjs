// Which containment gz-bench puts around a case's commands, so that the plain loop contains its spawns
// the same way. @gz-bench/core's `commandLaunch` says it: bwrap's argv in the sandbox; without it, a
// pid namespace of the command's own (`unshare`) where the machine allows one, else nothing (a plain
// shell in its own process group, whose leftovers gz-bench's token sweep ends). A core without
// `commandLaunch` gets the same from `sandboxArgv`, and a plain spawn without the sandbox.

/** Placeholders the plain loop fills in per case. */
const PLACES = { area: '{{area}}', workspace: '{{workspace}}', readOnly: ['{{promptFile}}'] };

/**
 * The launch of the trivial case's commands in `mode` (network on, the prompt file read-only, as
 * gz-bench runs it): `{ argv, containment, infoFd }`, argv with the placeholders {{area}},
 * {{workspace}} and {{promptFile}}.
 */
export async function launchFor(core, mode) {
  const where = { ...PLACES, network: true };
  if (typeof core.commandLaunch === 'function') {
    // The run's own environment decides, as it does for the harness (GZ_BENCH_* are not passed on).
    return core.commandLaunch({ ...where, sandbox: mode, env: {} });
  }
  if (mode === 'bwrap') return { argv: core.sandboxArgv(where), containment: 'bwrap', infoFd: true };
  return { argv: [], containment: 'sweep', infoFd: false };
}

/** A line for the machine's description: what contains the none-mode loop's spawns. */
export async function describeNoneContainment(core) {
  const launch = await launchFor(core, 'none');
  const source = typeof core.commandLaunch === 'function' ? "core's `commandLaunch`" : 'core has no `commandLaunch`';
  if (launch.argv.length === 0) return `own process group only, as gz-bench's token sweep (${source})`;
  return `${launch.containment}: \`${launch.argv.join(' ')}\` (${source})`;
}
