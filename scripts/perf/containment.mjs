// Which containment gz-bench's `--sandbox none` puts around a command, when @gz-bench/core exports
// it as an argv prefix, so that the plain loop contains its spawns the same way.

/** Names core may export the none-mode containment prefix under (a function of no arguments). */
const CANDIDATES = ['containmentArgv', 'noneContainmentArgv', 'containmentPrefix', 'processContainmentArgv'];

/**
 * The none-mode containment prefix of `core` with the export's name, or undefined when core exports
 * none (the loop then spawns plainly, in its own process group, as gz-bench's /proc-sweep fallback does).
 */
export function noneContainment(core) {
  for (const name of CANDIDATES) {
    const make = core[name];
    if (typeof make !== 'function') continue;
    const argv = make();
    if (Array.isArray(argv)) return { name, argv };
  }
  return undefined;
}

/**
 * The argv prefix gz-bench puts before `/bin/sh -c` in `mode`, with the placeholders {{area}},
 * {{workspace}} and {{promptFile}} for the plain loop to fill in per case: core's `sandboxArgv` for
 * bwrap (network on, the prompt file read-only, as for the trivial case), the none-mode prefix
 * otherwise (empty when core exports none).
 */
export function loopPrefix(core, mode) {
  if (mode === 'bwrap') {
    return core.sandboxArgv({
      area: '{{area}}',
      workspace: '{{workspace}}',
      readOnly: ['{{promptFile}}'],
      network: true,
    });
  }
  return noneContainment(core)?.argv ?? [];
}
