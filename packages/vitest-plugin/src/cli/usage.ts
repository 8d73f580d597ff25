/** The text of `gz-bench --help`. */
export const USAGE = `gz-bench — Your agent says it works. Prove it.

Usage:
  gz-bench run <suite.json>... (--cmd "<template>" | --agent NAME=TEMPLATE...)
               [--trials k] [--pass-rule majority|all|any|SHARE] [--case ID]... [-t PATTERN]
               [--timeout n] [--concurrency n] [--json] [--keep]
               [--allow-env NAME]... [--allow-secrets] [--sandbox auto|bwrap|none]
               [--base-image NAME=ARCHIVE]... [--engine auto|docker|podman|bwrap]
               [--logs DIR] [--markdown FILE] [--html FILE] [--unsafe]
               [--max-cost-usd X] [--max-tokens N] [--max-turns N] [-u, --update]
               [--only-failed REPORT] [--retry-errors [n]]
  gz-bench check-suite <suite.json>... [--case ID]... [--timeout n] [--concurrency n]
               [--allow-env NAME]... [--allow-secrets] [--sandbox auto|bwrap|none]
               [--base-image NAME=ARCHIVE]... [--engine auto|docker|podman|bwrap]
  gz-bench compare <base.json> <head.json> [--json] [--markdown FILE] [--html FILE]
  gz-bench view <report.json> [-o FILE] [--root DIR]
  gz-bench validate <suite.json>
  gz-bench import <task dir>... [-o, --out DIR] [--name NAME]
  gz-bench init [outDir] | gz-bench init --skill SKILL_DIR
  gz-bench doctor [--agent PRESET|NAME=PRESET[:MODEL]|NAME=TEMPLATE]...
  gz-bench --help | --version

A suite file may also be a Harbor or Terminal-Bench task directory (task.toml,
task.yaml), or a directory of them: each task is one case.

run       Run every case of the suites through Vitest and score it.
          Per case: fresh temp workspace -> setup commands -> the rendered
          command under its timeout -> checks in order -> delete the workspace.
  --cmd       the agent's command template, run by the system shell in the workspace:
              {{prompt}}      the case prompt, as one argument (up to 128 KiB)
              {{promptFile}}  the path of a read-only file holding the prompt, for
                              prompts of any length; stdin: my-agent < {{promptFile}}
              {{dir}}         the absolute workspace path
  --agent     one of several agents, each run on every case (repeatable; instead
              of --cmd): NAME=TEMPLATE, or a preset: PRESET, PRESET:MODEL,
              NAME=PRESET[:MODEL] (claude-code, codex, gemini, qwen, opencode)
  --arm NAME=SKILL_DIR[,SKILL_DIR...]  a skill arm (repeatable; --arm none= has no
              skills): every agent runs every case once per arm, the column
              AGENT/ARM, its skills installed where the agent's CLI looks for them;
              replaces the suites' own arms
  --baseline-arm NAME  the arm the others are compared with (default none, else
              the first)
  --skill-scope project|user  install the arms' skills in the workspace (default)
              or in each trial's own HOME
  --unsafe    let agents run that turn off their own approval prompts
  --max-cost-usd, --max-tokens, --max-turns  end a trial whose agent reports more
              as over budget (while it runs, for agents whose output reports usage as it goes)
  --trials    runs of each (agent, case), each in a fresh workspace (default 1)
  --pass-rule when a cell of several trials passes: majority (default), all,
              any, or a share such as 0.6 or 60%
  --case ID   run only the case whose id is ID, exactly (repeatable; a glob such as
              'fix-*' selects several; also on check-suite)
  -t, --test-name-pattern  run only the tests whose name matches PATTERN
              (suite > agent > case, or suite > agent/arm > case), as Vitest's -t does
  --tags-filter EXPR  run only the cases whose tags match EXPR, e.g.
              'python && !hard' (Vitest's --tags-filter; repeatable, all must match)
  --timeout   seconds that bound every command of every case (overrides timeoutSec)
  --concurrency  cases that run at once across all suites (default 4, or
              GZ_BENCH_CONCURRENCY); 1 runs them one at a time
  --json      print the JSON report on stdout instead of the table
  --keep      keep workspaces and print their paths
  --allow-env pass the harness's variables NAME (or A,B, or PREFIX_*) to the
              commands (repeatable); they get a minimal environment otherwise
  --allow-secrets  copy secret-looking files of fixture repositories too
  --sandbox   auto (default: bwrap when it works), bwrap, or none
  --base-image NAME=ARCHIVE  the image (docker-archive or OCI layout) a case's
              Dockerfile builds on for FROM NAME; no registry is reached
              (repeatable; also on check-suite)
  --engine    what builds Dockerfiles and holds named images: auto (default: docker,
              then podman, where one works, else bwrap), docker, podman, or bwrap
  -u, --update  write each suite's baseline file (x.bench.json -> x.bench.baseline.json)
              from this run's results, removing entries of cases that are gone
  --only-failed REPORT  run again only the trials of an earlier report that did
              not pass (or did not run), and report them with its passing ones
  --retry-errors [n]  run a trial again, up to n times (default 1), when it ends
              in an agent or harness error; honest failures are never retried
  --markdown  write the Markdown scoreboard of a run with agents or trials, and
              the sweep of a run with families, to FILE (also appended to
              $GITHUB_STEP_SUMMARY when set)
  --html      write the report as one self-contained HTML page to FILE (see view)
  --logs      write the whole output of every command to log files below DIR
              (DIR/<suite file>/<case>/agent.log…); the report names them

check-suite  Prove the checks of every case: run with a no-op agent they must fail,
          run with the case's own solution as the agent they must pass. Prints
          each case that does not discriminate (passes with a no-op agent,
          fails with its own solution, no solution); exit 1 if any does not.
compare   Compare two JSON reports cell by cell (suite file, case, agent): flips,
          new and removed cells, errors, duration, token and cost deltas, and per
          agent a verdict: regression, improvement or within noise (a cell of
          several trials regresses only on a significant drop). Exit 1 on a regression.
  --json      print the comparison as JSON instead of the table
  --markdown  write it as a pull-request comment to FILE (also appended to
              $GITHUB_STEP_SUMMARY when set)
  --html      write it as one self-contained HTML page to FILE
view      Write a JSON report as one self-contained HTML page (no network, opens
          from file://): the scoreboard grid, agents' scores, and per trial its
          checks, diff and trajectory; prints the page's path.
  -o, --output  the page (default: beside the report, report.json -> report.html)
  --root      the directory the report's paths are relative to (default: the
              first of the current directory, the one holding .gz-bench, and the
              report's own where its files are found)
validate  Check a suite's structure. Exit 0 if valid. Also lists, per task, what of
          its environment this host does not provide.
import    Write Harbor or Terminal-Bench task directories out as an ordinary suite,
          NAME.bench.json, with each task's tests, solution and starting files in NAME/.
  -o, --out   the directory to write to (default: the current one)
  --name      the suite's name (default: the first directory's name)
init      Write example-suite.json (default: the current directory), whose cases
          pass with --cmd "echo done".
  --skill SKILL_DIR  write <name>.bench.json beside the skill instead: the arms
          none and current, two cases that should use the skill, one that must not
doctor    For every preset (claude-code, codex, gemini, qwen, opencode), or the agents
          given with --agent: installed or not, its version, the exact command it
          will run, which of its variables are set (names only) and what is missing.
          Exit 0 when every agent is ready.

Exit codes: 0 all cases passed (or validate/init succeeded, or compare found
            no regression), 1 at least one case failed (compare: a regression),
            2 usage or validation error (compare, view: a report it cannot read).
`;
