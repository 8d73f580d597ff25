// Row 3.4: what reading a trial's trajectory costs, against the fixture copy of row 3.1. One case run
// by core's runCase (logs on, `--sandbox none`): its agent prints a Claude Code stream-json of 200
// tool calls (recorded lines of the real CLI, repeated with their ids renumbered), read with the
// claude-code usage extractor and trajectory format, and written as trajectory.json; against the same
// case reading neither. The figure is the difference of the median times per trial.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { caseLogLocation, runCase } from '@gz-bench/core';
import { REPO_ROOT, scaled } from './options.mjs';
import { measuredRow, ms, times } from './row.mjs';
import { median } from './stats.mjs';

const TARGET = 0.2;
const CALLS = 200;
const TRANSCRIPT = join(REPO_ROOT, 'packages/core/src/agents/usage/test-support/transcripts/claude-code.shell.stdout');

/** A stream of `calls` tool calls and their results, from the recorded transcript's own lines. */
function claudeStream(calls) {
  const lines = readFileSync(TRANSCRIPT, 'utf8').trim().split('\n');
  const [init, call, result] = lines;
  const [finalText, final] = lines.slice(-2);
  const out = [init];
  for (let index = 1; index <= calls; index += 1) {
    const use = JSON.parse(call);
    use.message.id = `msg_${index}`;
    use.message.content[0].id = `toolu_${index}`;
    use.message.content[0].input.command = `echo step ${index} >> log.txt`;
    const back = JSON.parse(result);
    back.message.content[0].tool_use_id = `toolu_${index}`;
    back.message.content[0].content = `step ${index} done`;
    out.push(JSON.stringify(use), JSON.stringify(back));
  }
  out.push(finalText, final);
  return `${out.join('\n')}\n`;
}

/** Row 3.4, given row 3.1's median copy time. */
export async function trajectoryCostRow(context, { dir, copyMs }) {
  const { options } = context;
  const calls = scaled(options, CALLS, 2);
  const stream = join(dir, 'claude-stream.jsonl');
  await writeFile(stream, claudeStream(calls));
  const testCase = { id: 'streamed', prompt: 'Run the steps.', checks: [] };
  let runs = 0;
  const trial = async (read) => {
    runs += 1;
    const started = performance.now();
    const result = await runCase(testCase, {
      cmd: `cat '${stream}'`,
      tmpDir: context.work.tmp,
      logs: caseLogLocation({ logsDir: join(dir, 'logs'), root: dir, suiteFile: 'perf.json', caseId: `run-${runs}` }),
      ...(read && {
        usage: { builtin: 'claude-code' },
        trajectory: { format: 'claude-code', agent: { name: 'claude-code', preset: 'claude-code' } },
      }),
    });
    const wall = performance.now() - started;
    if (!result.passed) throw new Error(`the streamed case failed: ${result.error}`);
    if (read && result.trajectory?.toolCalls !== calls) {
      throw new Error(`the trajectory has ${result.trajectory?.toolCalls} tool calls, not ${calls}`);
    }
    return wall;
  };
  const walls = { on: [], off: [] };
  await trial(true);
  for (let run = 0; run < options.cheapRuns; run += 1) {
    context.log(`3: a trial's trajectory of ${calls} tool calls, run ${run + 1} of ${options.cheapRuns}`);
    walls.on.push(await trial(true));
    walls.off.push(await trial(false));
  }
  const cost = median(walls.on) - median(walls.off);
  return measuredRow({
    id: '3.4',
    what: `Reading a trial's trajectory: a Claude Code stream of ${calls} tool calls to trajectory.json (core \`runCase\`, against the same case reading none)`,
    baseline: `\`copyFixture\` ${ms(copyMs)}`,
    figure: `${ms(cost)} more per trial`,
    value: times(cost / copyMs),
    target: `≤ ${TARGET}× the copy`,
    met: cost / copyMs <= TARGET,
  });
}
