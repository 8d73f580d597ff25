// Which containment gz-bench's `--sandbox none` puts around a command, so that the plain loop contains
// its spawns the same way: where @gz-bench/core exports `probePidNamespace` (a pid namespace made by
// `unshare`, where the machine allows it), its argv prefix; otherwise none, and the loop spawns each
// command in its own process group only, as gz-bench's token sweep does.

/**
 * The none-mode containment of `core`: `{ argv, text }` with the prefix and a line for the machine's
 * description (argv empty when there is no prefix).
 */
export async function noneContainment(core) {
  if (typeof core.probePidNamespace !== 'function') {
    return { argv: [], text: 'own process group (core exports no containment prefix for `--sandbox none`)' };
  }
  const probe = await core.probePidNamespace();
  if (!probe.available) return { argv: [], text: `own process group (no pid namespace here: ${probe.reason})` };
  return { argv: probe.argv, text: `core's \`probePidNamespace()\` argv: \`${probe.argv.join(' ')}\`` };
}

/**
 * The argv prefix gz-bench puts before `/bin/sh -c` in `mode`, with the placeholders {{area}},
 * {{workspace}} and {{promptFile}} for the plain loop to fill in per case: core's `sandboxArgv` for
 * bwrap (network on, the prompt file read-only, as for the trivial case), the none-mode prefix
 * otherwise.
 */
export async function loopPrefix(core, mode) {
  if (mode === 'bwrap') {
    return core.sandboxArgv({
      area: '{{area}}',
      workspace: '{{workspace}}',
      readOnly: ['{{promptFile}}'],
      network: true,
    });
  }
  return (await noneContainment(core)).argv;
}
