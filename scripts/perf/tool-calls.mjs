// Rows 7.x: what one call of a family's tool costs, through the CLI: a pointer chase of size 200 and
// one of size 1, each run by `gz-bench run` with an agent that follows the chain in a shell loop
// (builtins only, besides the tool itself), in each sandbox mode. The cost per call is the difference
// of their wall times over the difference of their calls (199): the tool program, the harness's
// answer and the agent loop's own fork per call, everything a call adds.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scaled } from './options.mjs';
import { runProblem } from './report.mjs';
import { measuredRow, ms, unavailableRow } from './row.mjs';
import { runGzBench } from './spawn.mjs';
import { median } from './stats.mjs';

const TARGET_MS = 30;
const SIZE = 200;

/** Follows the chain from the key in the prompt, and writes the fragments to answer.txt. */
const CHASER = `key=$(sed -n 's|.*starting with: ./tools/follow \\([A-Za-z0-9]*\\).*|\\1|p' "$GZ_BENCH_PROMPT_FILE")
answer=''
while [ "$key" != END ]; do
  reply=$(./tools/follow "$key") || exit 1
  rest=\${reply#next: }; key=\${rest%%"
"*}
  answer="$answer\${reply##*fragment: }"
done
printf '%s\\n' "$answer" > answer.txt
`;

/** Rows 7.1 (no sandbox) and 7.2 (bwrap). */
export async function toolCallRows(context) {
  const { options, work, sandbox } = context;
  const dir = await work.dir('tool-calls');
  const size = scaled(options, SIZE, 2);
  await writeFile(join(dir, 'chaser.sh'), CHASER);
  await writeFile(
    join(dir, 'chase.bench.json'),
    JSON.stringify({
      name: 'chase',
      cases: [],
      families: [{ id: 'c', kind: 'pointerChase', seed: 7, sizes: [1, size] }],
    }),
  );
  const rows = [];
  // Interleaved, so that a slower stretch of the machine weighs on both sizes alike.
  for (const [id, mode] of [
    ['7.1', 'none'],
    ['7.2', 'bwrap'],
  ]) {
    const what = `One call of a family's tool (\`./tools/follow\`) through \`gz-bench run\`, \`--sandbox ${mode}\` (a chase of ${size} against one of 1)`;
    const target = `≤ ${TARGET_MS} ms`;
    if (mode === 'bwrap' && !sandbox.available) {
      rows.push(unavailableRow({ id, what, target, reason: sandbox.reason, missed: false }));
      continue;
    }
    const walls = { 1: [], [size]: [] };
    let problem;
    for (let run = 0; run < options.runs && problem === undefined; run += 1) {
      for (const n of [1, size]) {
        context.log(`7: a chase of ${n}, --sandbox ${mode}, run ${run + 1} of ${options.runs}`);
        const args = ['run', 'chase.bench.json', '-t', `c size ${n}$`, '--cmd', `sh ${join(dir, 'chaser.sh')}`];
        const result = await runGzBench([...args, '--sandbox', mode, '--json'], { cwd: dir, env: context.env });
        problem = runProblem(result, 1);
        if (problem !== undefined) break;
        walls[n].push(result.wallMs);
      }
    }
    if (problem !== undefined) {
      rows.push(unavailableRow({ id, what, target, reason: problem }));
      continue;
    }
    const perCall = (median(walls[size]) - median(walls[1])) / (size - 1);
    rows.push(
      measuredRow({
        id,
        what,
        baseline: `the whole run of the chase of 1: ${ms(median(walls[1]))}`,
        figure: `${ms(perCall)} per call`,
        value: ms(perCall),
        target,
        met: perCall <= TARGET_MS,
      }),
    );
  }
  return rows;
}
