// Rows 5.x: loading and validating a 10,000-case suite (big-suite.mjs), each figure the median of
// fresh Node processes. 5.1: core's loadSuite against readFile + JSON.parse of the same file;
// 5.2, for information: the whole `gz-bench validate` process against a Node process that parses it.

import { writeBigSuite } from './big-suite.mjs';
import { scaled } from './options.mjs';
import { duration, infoRow, measuredRow, seconds, times, unavailableRow } from './row.mjs';
import { firstLine, runGzBench, runNodeScript } from './spawn.mjs';
import { median } from './stats.mjs';

const TARGET_MS = 500;

/** Rows 5.1 and 5.2. */
export async function loadingRows(context) {
  const { options, work } = context;
  const dir = await work.dir('loading');
  const cases = scaled(options, 10_000);
  const file = await writeBigSuite(dir, cases);
  const what = `Loading and validating a ${cases.toLocaleString('en')}-case suite (core \`loadSuite\`, a fresh process)`;
  const cliWhat = `The same with \`gz-bench validate\` (whole process)`;

  const probe = async (how) => {
    const run = await runNodeScript('load-probe.mjs', [how, file], { cwd: dir, env: context.env });
    if (run.code !== 0) return { problem: firstLine(run) };
    const { ms, cases: loaded } = JSON.parse(run.stdout);
    if (loaded !== cases) return { problem: `read ${loaded} of ${cases} cases` };
    return { ms, processMs: run.wallMs };
  };
  const figures = { json: [], load: [], parseProcess: [], validate: [] };
  for (let run = 0; run < options.cheapRuns; run += 1) {
    context.log(`5: loading ${cases} cases, run ${run + 1} of ${options.cheapRuns}`);
    const parsed = await probe('json');
    const loaded = await probe('load');
    const problem = parsed.problem ?? loaded.problem;
    if (problem !== undefined) {
      return [
        unavailableRow({ id: '5.1', what, target: `≤ ${seconds(TARGET_MS)}`, reason: problem }),
        unavailableRow({ id: '5.2', what: cliWhat, target: '—', reason: problem, missed: false }),
      ];
    }
    figures.json.push(parsed.ms);
    figures.parseProcess.push(parsed.processMs);
    figures.load.push(loaded.ms);
    const validate = await runGzBench(['validate', file], { cwd: dir, env: context.env });
    if (validate.code !== 0) {
      const reason = firstLine(validate);
      return [
        measuredRow(loadRow(what, figures)),
        unavailableRow({ id: '5.2', what: cliWhat, target: '—', reason, missed: false }),
      ];
    }
    figures.validate.push(validate.wallMs);
  }
  const parseProcess = median(figures.parseProcess);
  const validate = median(figures.validate);
  return [
    measuredRow(loadRow(what, figures)),
    infoRow({
      id: '5.2',
      what: cliWhat,
      baseline: `\`node\` + JSON.parse ${duration(parseProcess)}`,
      figure: duration(validate),
      value: times(validate / parseProcess),
    }),
  ];
}

function loadRow(what, figures) {
  const load = median(figures.load);
  const json = median(figures.json);
  return {
    id: '5.1',
    what,
    baseline: `JSON.parse ${duration(json)}`,
    figure: duration(load),
    value: `${duration(load)} (${times(load / json)} JSON.parse)`,
    target: `≤ ${seconds(TARGET_MS)}`,
    met: load <= TARGET_MS,
  };
}
