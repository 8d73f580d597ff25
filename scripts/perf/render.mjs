// The table (printed and written) and the document around it (docs/performance.md).

const COLUMNS = [
  ['#', 'id'],
  ['What is measured', 'what'],
  ['Baseline (same run)', 'baseline'],
  ['gz-bench', 'figure'],
  ['Ratio / value', 'value'],
  ['Target', 'target'],
  ['Result', 'result'],
];

/** The machine's description and the rows, as one Markdown table block. */
export function renderTable(machine, rows, { runs, cheapRuns, quick, scale }) {
  const lines = machine.map(([label, value]) => `- **${label}:** ${value}`);
  const how = `${quick ? 'quick run: ' : ''}medians of ${runs} runs (the plain loop, copies and loading: ${cheapRuns})`;
  lines.push(`- **Runs:** ${how}${scale < 1 ? `; every size scaled by ${scale}` : ''}`);
  lines.push('');
  lines.push(`| ${COLUMNS.map(([title]) => title).join(' | ')} |`);
  lines.push(`| ${COLUMNS.map(([, key]) => (key === 'what' ? '---' : ':--')).join(' | ')} |`);
  for (const row of rows) lines.push(`| ${COLUMNS.map(([, key]) => row[key]).join(' | ')} |`);
  const missed = rows.filter((row) => row.result === 'MISSED').length;
  const met = rows.filter((row) => row.result === 'met').length;
  lines.push('');
  lines.push(`${met} targets met, ${missed} missed.`);
  return lines.join('\n');
}

const INTRO = `# Performance

\`pnpm perf\` measures gz-bench's own cost on this machine, each figure against a baseline measured in
the same run, and says whether its target is met. A missed target is shown as MISSED: nothing is tuned
to pass. Run it yourself after \`pnpm install\`:

\`\`\`sh
pnpm perf            # about 5 minutes on 2 cores; prints the table and rewrites docs/performance.md
pnpm perf --quick    # one run of each measurement instead of several
pnpm perf --only=2,4 # only the concurrency and memory rows; prints them, leaves this document alone
\`\`\`

\`GZ_BENCH_PERF_OUT=path\` writes the document elsewhere, and \`GZ_BENCH_PERF_SCALE=0.1\` scales every
size down (case counts, fixture, output) for a smoke test; figures at a reduced scale do not meet or
miss the real targets. Everything runs in a private temp directory that is removed at the end; the
harness runs get that directory as TMPDIR and none of the user's \`GZ_BENCH_*\` variables. Wall times
are of whole processes, Node's start included. Other work on the machine makes them noisy: run it on
a quiet machine (\`uptime\`), and read the note under the table, which says how much of the CPU other
processes took during the run (the machine's busy time less this run's own).

## What each row measures

- **1.x Per-case overhead and start-up.** N trivial cases (the command writes \`out.txt\` and prints
  \`done\`; four checks: \`fileExists\`, \`fileContains\`, a \`command\` check \`test -s out.txt\`,
  \`outputMatches\`) through \`gz-bench run\`, serially, for N = 1, 20 and 40, against a plain Node
  loop ([scripts/perf/plain-loop.mjs](../scripts/perf/plain-loop.mjs)) doing the least any harness must:
  \`mkdtemp\`, the agent command as one \`/bin/sh -c\` spawn in its own process group, the two file checks
  read directly, the \`command\` check as one more \`/bin/sh -c\` spawn, the output matched, \`rm -rf\`.
  Both spawns get the same containment as gz-bench's, from core's \`commandLaunch\`: bwrap's argv for
  bwrap; for none, the pid-namespace launcher (\`unshare\`) where the machine allows it, else nothing
  (the machine lines say which). A least-squares line
  through the median wall time at each N splits each into a cost per case (the slope: the ratio
  row) and a fixed start-up (the intercept: the start-up row, gz-bench's over the loop's).
  1.5 shows, for information, how much of that start-up is Vitest's own: \`vitest run\` of one
  empty test in a project of its own, against \`node\` running an empty script. 1.6 shows, for
  information, what recording each trial's changes adds to the trivial case: 40 of them with the
  default \`changes\` and with \`changes: false\`, interleaved, the difference of the medians per case.
- **2.x Concurrency.** Cases that run \`sleep 1\`, spread over 8 suite files, run by one
  \`gz-bench run … --concurrency n --sandbox none\`, against the ideal ceil(cases / n) × 1 s. The
  figure is the span of the cases: from the first agent's start to the last agent's end, as each agent
  notes them (\`date +%s%N\` appended to a file before and after its \`sleep 1\`). The fixed start-up
  before the first case is row 1.2's, and is left out here: with any start-up at all the whole run
  could not meet 1.15× of 4 s. The whole command's wall time is shown beside the span. Where the CLI
  refuses the flag the row says so. 2.3 and 2.4 show, for information, the span of the same cases
  run by a plain Node loop ([scripts/perf/concurrent-loop.mjs](../scripts/perf/concurrent-loop.mjs))
  at the same limit, interleaved with gz-bench's runs: per case \`mkdtemp\`, one spawn of the same
  command with the same containment as 1.1's loop, \`rm -rf\`. The cases' own commands (a shell, two
  \`date\` and a \`sleep\` each, started by the dozen at once) cost CPU too, and this is how near the
  ideal any harness comes on the machine. 2.5 and 2.6 compare what a user waits for: the whole
  \`gz-bench run\`, start-up included, against the whole plain loop's process, from the same
  interleaved runs. The suite files are uneven (the n-th holds n shares of the cases), as real suites are.
- **3.x Fixture copies.** A deterministic tree of 5,000 files and 50 MiB (sizes from bytes to hundreds of
  KiB, directories up to 8 deep) in the temp dir, copied by core's \`copyFixture\` (what a case does for
  its \`repo\`) against \`cp -r\` of the same tree, each after one untimed copy so both read from the page
  cache. 3.2 shows, for information, what the same \`repo\` adds to a whole case run by the CLI
  (two runs of 4 cases with it and without it). 3.3 times what a trial's \`changes\` cost on the same
  fixture ([scripts/perf/changes.mjs](../scripts/perf/changes.mjs)), against 3.1's copy: after a copy
  (untimed), core's snapshot of the workspace as setup left it, then, after the measured "agent"
  edited 20 files, deleted 10 and added 10 (untimed), the comparison, the rendered diff and its write
  to \`changes.diff\`; the counts are checked, so a comparison that missed a change fails the row. 3.4
  times what reading a trial's trajectory costs ([scripts/perf/trajectory-cost.mjs](../scripts/perf/trajectory-cost.mjs)):
  one case run by core's \`runCase\` whose agent prints a Claude Code stream-json of 200 tool calls
  (the recorded lines of the real CLI, renumbered), read with its usage extractor and trajectory
  format into \`trajectory.json\`, against the same case reading neither, per trial.
- **4.x Memory.** The peak of the summed VmRSS (/proc/<pid>/status, every 50 ms) of every process of
  the harness: the CLI, Vitest's workers and the guardians, all descendants and members of the CLI's
  process group and session, except the agents' own processes (those carrying the case token). Shared
  pages count in every process, as VmRSS counts them. A process counts from its second sample on, so
  that a child caught between fork and exec (briefly showing its parent's RSS) is not counted twice.
  Both rows keep full output logs (\`--logs\`, where the CLI has it), so every byte goes through the
  harness to disk. 4.1 while an agent prints 1 GiB, checked to have reached the agent's log (its
  baseline: the same case printing one line); 4.2 the growth from 100 to 1,000 trivial cases over 8
  suite files at the default concurrency (each count's median peak over the runs, interleaved).
- **5.x Loading.** A generated 10,000-case suite (a fixture repository with protected tests, checkers
  that are fixture files, all five check kinds, setup and settings on some cases), read by core's
  \`loadSuite\` (parsing, validation and the fixture checks) in a fresh Node process, against
  \`readFile\` + \`JSON.parse\` of the same file; 5.2 the whole \`gz-bench validate\` process.
- **6.x The HTML viewer.** The page \`gz-bench view\` writes of a 10,000-row report (1,000 cases × 2
  agents × 5 trials, each row naming a diff and a trajectory), opened from \`file://\` in headless
  Chromium, offline: 6.1 the time until the grid is drawn plus a click on a cell until its trial's
  details show; 6.2, for information, choosing a tag in the filter until the grid is drawn again.
- **7.x Tool calls of families.** A \`pointerChase\` of size 200 and one of size 1, each run by
  \`gz-bench run\` with an agent that follows the chain in a shell loop (builtins only, besides the tool:
  [scripts/perf/tool-calls.mjs](../scripts/perf/tool-calls.mjs)), interleaved, in each sandbox mode. The
  cost of one call is the difference of the median wall times over the 199 calls between them: the
  tool program, the harness's answer and the loop's own fork per call.

## Results
`;

/** docs/performance.md: the intro, then the table. */
export function renderDocument(table, notes) {
  const extra = notes.length > 0 ? `\n\n${notes.map((note) => `- ${note}`).join('\n')}` : '';
  return `${INTRO}\n${table}${extra}\n`;
}
