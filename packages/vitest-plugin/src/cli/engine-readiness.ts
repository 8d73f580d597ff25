import { type ContainerEngine, type EngineProbe, probeEngine, probeSandbox } from '@gz-bench/core';

// What `gz-bench doctor` says of environments (cases that run in an image): which container
// engines work here, what stops the others with the fix, and whether bwrap, which runs every
// image's trials and is the daemonless builder, works.

/** The engines' block of the doctor's report, and the engine `auto` takes here. */
export async function engineReadiness(): Promise<string> {
  const engines: [ContainerEngine, EngineProbe][] = [];
  for (const engine of ['docker', 'podman'] as const) engines.push([engine, await probeEngine(engine)]);
  const sandbox = await probeSandbox();
  const chosen = engines.find(([, probe]) => probe.works)?.[0] ?? 'bwrap';
  const lines = [`environments  engine "auto" takes ${chosen} here`];
  const row = (label: string, text: string) => lines.push(`  ${label.padEnd(9)}${text}`);
  for (const [engine, probe] of engines) {
    row(engine, probe.works ? `works (${probe.version})` : `not usable: ${probe.reason}; ${probe.fix}`);
  }
  row(
    'bwrap',
    sandbox.available
      ? `works (${sandbox.version}): runs the trials of every image, and builds Dockerfiles without a daemon`
      : `not usable: ${sandbox.reason}${sandbox.fix ? `; ${sandbox.fix}` : ''} (cases with an environment cannot run)`,
  );
  return `${lines.join('\n')}\n`;
}
