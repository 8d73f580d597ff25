// Reports to open in the browser tests, written as a run would: a report.json under `<root>/.gz-bench/`
// and, beside each trial's agent.log, a changes.diff (unified diff) and a trajectory.json (ATIF v1.4).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Outcome, Report, ReportResult } from '@gz-bench/core';
import { buildScoreboard, OUTCOMES } from '@gz-bench/core';
import type { Trajectory } from '../../../packages/core/src/agents/trajectory/types.js';

/** Strings an agent could write anywhere: each must show as text and never run. */
export const HOSTILE = {
  script: '</script><script>alert(1)</script>',
  attribute: '"><img src=x onerror=alert(1)>',
  url: 'javascript:alert(1)',
  separators: 'line\u2028paragraph\u2029end',
  surrogate: 'lone \ud800 high and \udc00 low',
} as const;

interface Trial {
  agent: string;
  caseId: string;
  trial: number;
  outcome: Outcome;
}

const CASES = [
  { suite: 'basics', file: 'bench/basics.bench.json', id: 'write-hello', tags: ['smoke'] },
  { suite: 'basics', file: 'bench/basics.bench.json', id: 'fix-greeting', tags: ['smoke', 'bugfix'] },
  { suite: 'bugfix', file: 'bench/bugfix.bench.json', id: 'fix-off-by-one', tags: ['bugfix'] },
  { suite: 'bugfix', file: 'bench/bugfix.bench.json', id: 'rename-module', tags: ['refactor'] },
] as const;

const PLAN: Record<string, Record<string, Outcome[]>> = {
  'claude-code': {
    'write-hello': ['passed', 'passed', 'passed'],
    'fix-greeting': ['passed', 'passed', 'passed'],
    'fix-off-by-one': ['passed', 'failed', 'passed'],
    'rename-module': ['passed', 'passed', 'timedOut'],
  },
  codex: {
    'write-hello': ['passed', 'passed', 'passed'],
    'fix-greeting': ['failed', 'passed', 'passed'],
    'fix-off-by-one': ['failed', 'failed', 'agentError'],
    'rename-module': ['passed', 'failed', 'passed'],
  },
  gemini: {
    'write-hello': ['passed', 'passed', 'failed'],
    'fix-greeting': ['failed', 'failed', 'failed'],
    'fix-off-by-one': ['failed', 'passed', 'failed'],
    'rename-module': ['harnessError', 'failed', 'failed'],
  },
};

const DIFF = `diff -ruN a/src/range.js b/src/range.js
--- a/src/range.js
+++ b/src/range.js
@@ -1,7 +1,7 @@
 // Returns the numbers from start to end, both included.
 export function range(start, end) {
   const out = [];
-  for (let i = start; i < end; i++) out.push(i);
+  for (let i = start; i <= end; i++) out.push(i);
   return out;
 }
 
diff -ruN a/test/range.test.js b/test/range.test.js
--- a/test/range.test.js
+++ b/test/range.test.js
@@ -0,0 +1,6 @@
+import { range } from '../src/range.js';
+import assert from 'node:assert';
+
+assert.deepStrictEqual(range(1, 3), [1, 2, 3]);
+assert.deepStrictEqual(range(2, 2), [2]);
+console.log('ok');
`;

function trajectory(agent: string, prompt: string, failing: boolean): Trajectory {
  const t0 = Date.parse('2026-12-01T10:00:00Z');
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();
  return {
    schema_version: 'ATIF-v1.4',
    session_id: `${agent}-session`,
    agent: { name: agent, version: '1.0.0', model_name: `${agent}-model` },
    steps: [
      { step_id: 1, timestamp: at(0), source: 'user', message: prompt },
      {
        step_id: 2,
        timestamp: at(2),
        source: 'agent',
        model_name: `${agent}-model`,
        message: "I'll look at the range function first.",
        reasoning_content: 'The test says range(1, 3) should include 3, so the loop bound is probably off by one.',
        tool_calls: [{ tool_call_id: 'call-1', function_name: 'Bash', arguments: { command: 'cat src/range.js' } }],
        observation: {
          results: [
            {
              source_call_id: 'call-1',
              content:
                'export function range(start, end) {\n  const out = [];\n  for (let i = start; i < end; i++) out.push(i);\n  return out;\n}\n',
            },
          ],
        },
        metrics: { prompt_tokens: 1840, completion_tokens: 96, cached_tokens: 1200 },
      },
      {
        step_id: 3,
        timestamp: at(5),
        source: 'agent',
        message: 'The loop stops before `end`. Fixing it and adding a test.',
        tool_calls: [
          {
            tool_call_id: 'call-2',
            function_name: 'Edit',
            arguments: { file_path: 'src/range.js', old_string: 'i < end', new_string: 'i <= end' },
          },
          {
            tool_call_id: 'call-3',
            function_name: 'Write',
            arguments: { file_path: 'test/range.test.js', content: "import { range } from '../src/range.js';\n…" },
          },
        ],
        observation: {
          results: [
            { source_call_id: 'call-2', content: 'The file src/range.js has been updated.' },
            { source_call_id: 'call-3', content: 'File created: test/range.test.js' },
          ],
        },
        metrics: { prompt_tokens: 2210, completion_tokens: 240, cached_tokens: 1840 },
      },
      {
        step_id: 4,
        timestamp: at(9),
        source: 'agent',
        message: '',
        tool_calls: [
          {
            tool_call_id: 'call-4',
            function_name: 'exec_command',
            arguments: { command: ['bash', '-lc', 'node test/range.test.js'] },
          },
        ],
        observation: {
          results: [
            failing
              ? {
                  source_call_id: 'call-4',
                  content:
                    'AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:\n+ [1, 2]\n- [1, 2, 3]',
                }
              : { source_call_id: 'call-4', content: 'ok' },
          ],
        },
        ...(failing && { extra: { results: [{ index: 0, source_call_id: 'call-4', is_error: true }] } }),
        metrics: { prompt_tokens: 2600, completion_tokens: 40, cached_tokens: 2210 },
      },
      {
        step_id: 5,
        timestamp: at(11),
        source: 'agent',
        message: failing
          ? 'The test still fails; I could not finish.'
          : 'Fixed: range() now includes its end, and test/range.test.js checks it.',
        metrics: { prompt_tokens: 2700, completion_tokens: 30, cached_tokens: 2600 },
      },
    ],
    final_metrics: {
      total_prompt_tokens: 9350,
      total_completion_tokens: 406,
      total_cached_tokens: 7850,
      total_steps: 5,
    },
  };
}

/** Writes a realistic report of three agents × four cases × three trials below `root`; returns the report's path. */
export async function writeSampleReport(root: string, options: { hostile?: boolean } = {}): Promise<string> {
  const hostile = options.hostile === true;
  const results: ReportResult[] = [];
  const trials: Trial[] = [];
  for (const [agent, byCase] of Object.entries(PLAN)) {
    for (const [caseId, outcomes] of Object.entries(byCase)) {
      for (const [index, outcome] of outcomes.entries()) trials.push({ agent, caseId, trial: index + 1, outcome });
    }
  }
  for (const testCase of CASES) {
    for (const { agent, trial, outcome } of trials.filter((each) => each.caseId === testCase.id)) {
      const id = hostile && testCase.id === 'write-hello' ? `${testCase.id} ${HOSTILE.script}` : testCase.id;
      const agentName = hostile && agent === 'gemini' ? `gemini ${HOSTILE.attribute}` : agent;
      const dir = `.gz-bench/logs/${testCase.file.replace(/\//g, '_')}/${testCase.id}/${agent}/trial-${trial}`;
      await mkdir(join(root, dir), { recursive: true });
      const passed = outcome === 'passed';
      const prompt = hostile
        ? `Fix it. ${HOSTILE.script} ${HOSTILE.attribute} ${HOSTILE.separators} ${HOSTILE.surrogate}`
        : 'range(1, 3) should return [1, 2, 3], but the test fails. Fix src/range.js and add a test.';
      const traj = trajectory(agentName, prompt, !passed);
      if (hostile) {
        const call = traj.steps[1]?.tool_calls?.[0];
        if (call) call.arguments = { command: `echo '${HOSTILE.script}' ${HOSTILE.url}` };
        traj.steps.push({ step_id: 6, source: 'agent', message: `${HOSTILE.attribute} ${HOSTILE.surrogate}` });
      }
      const diff = hostile ? `${DIFF}+${HOSTILE.script}\n+${HOSTILE.attribute}\n` : DIFF;
      await writeFile(join(root, dir, 'agent.log'), `${agent} started\n${prompt}\n`);
      await writeFile(join(root, dir, 'changes.diff'), diff);
      await writeFile(join(root, dir, 'trajectory.json'), JSON.stringify(traj, null, 2));
      const changedPath = hostile ? `src/${HOSTILE.attribute}.js` : 'src/range.js';
      const error = passed
        ? undefined
        : outcome === 'failed'
          ? 'command failed: node test/range.test.js exited 1'
          : outcome === 'timedOut'
            ? 'the agent did not finish within 300s'
            : outcome === 'agentError'
              ? 'the agent exited 1: Error: rate limited (429)'
              : 'setup command failed: npm ci exited 1';
      results.push({
        id,
        passed,
        outcome,
        durationMs: 4000 + ((trial * 1373 + id.length * 977) % 9000),
        checkResults: [
          {
            kind: 'command',
            run: 'node test/range.test.js',
            passed: passed || outcome !== 'failed',
            ...(outcome === 'failed' && { message: hostile ? HOSTILE.script : 'exited 1' }),
            exitCode: outcome === 'failed' ? 1 : 0,
            timedOut: false,
            log: `${dir}/check-1.log`,
            outputTail: outcome === 'failed' ? 'AssertionError: [1, 2] !== [1, 2, 3]\n' : 'ok\n',
          } as never,
          {
            kind: 'fileContains',
            path: 'src/range.js',
            text: '<= end',
            passed,
            ...(!passed && { skipped: true }),
          } as never,
        ],
        suite: testCase.suite,
        file: testCase.file,
        ...(error !== undefined && { error: hostile ? `${error} ${HOSTILE.script}` : error }),
        ...(!passed && { failedStep: outcome === 'failed' ? 'check' : outcome === 'harnessError' ? 'setup' : 'agent' }),
        agentName,
        trial,
        tags: [...testCase.tags],
        agent: {
          exitCode: outcome === 'agentError' ? 1 : 0,
          signal: null,
          timedOut: outcome === 'timedOut',
          durationMs: 3500,
          outputTail: `${agent}: done\n${hostile ? HOSTILE.script : ''}`,
          outputBytes: 4096,
          outputDroppedBytes: 0,
          log: hostile ? HOSTILE.url : `${dir}/agent.log`,
          usage: {
            inputTokens: 9350,
            outputTokens: 406,
            cachedInputTokens: 7850,
            costUsd: 0.0123,
            costSource: 'agent',
            model: `${agent}-model`,
          },
        },
        changes: {
          added: 1,
          modified: 1,
          deleted: 0,
          linesAdded: 7,
          linesRemoved: 1,
          files: [
            { path: changedPath, status: 'modified', linesAdded: 1, linesRemoved: 1 },
            { path: 'test/range.test.js', status: 'added', linesAdded: 6, linesRemoved: 0 },
          ],
          file: `${dir}/changes.diff`,
          diffBytes: diff.length,
        },
        trajectory: { format: agent, file: `${dir}/trajectory.json`, steps: traj.steps.length, toolCalls: 4 },
      });
    }
  }
  const report: Report = {
    summary: {
      total: results.length,
      passed: results.filter((row) => row.passed).length,
      failed: results.filter((row) => !row.passed).length,
    },
    results,
    meta: { gzBenchVersion: '0.1.0', vitestVersion: '4.1.12' },
    scoreboard: buildScoreboard(results, { rule: 'majority' }),
  };
  const path = join(root, '.gz-bench', 'report.json');
  await mkdir(join(root, '.gz-bench'), { recursive: true });
  await writeFile(path, JSON.stringify(report, null, 2));
  return path;
}

/** A report of `rows` trials (1000 cases × 2 agents × 5 trials for 10,000), each with a diff and a trajectory file. */
export async function writeBigReport(root: string, rows: number): Promise<string> {
  const results: ReportResult[] = [];
  const agents = ['alpha', 'beta'];
  const trialsPerCell = 5;
  const cases = Math.ceil(rows / (agents.length * trialsPerCell));
  const dir = '.gz-bench/logs/shared';
  await mkdir(join(root, dir), { recursive: true });
  await writeFile(join(root, dir, 'changes.diff'), DIFF.repeat(20));
  await writeFile(join(root, dir, 'trajectory.json'), JSON.stringify(trajectory('alpha', 'Fix the bug.', false)));
  for (let c = 0; c < cases && results.length < rows; c++) {
    for (const agent of agents) {
      for (let t = 1; t <= trialsPerCell && results.length < rows; t++) {
        const outcome = OUTCOMES[(c * 7 + t * 3 + agent.length) % 3 === 0 ? 1 : 0] as Outcome;
        results.push({
          id: `case-${String(c).padStart(4, '0')}`,
          passed: outcome === 'passed',
          outcome,
          durationMs: 1000 + ((c * 31 + t) % 5000),
          checkResults: [{ kind: 'fileExists', path: 'out.txt', passed: outcome === 'passed' } as never],
          suite: `suite-${c % 10}`,
          file: `bench/suite-${c % 10}.bench.json`,
          ...(outcome !== 'passed' && { error: 'file does not exist: out.txt', failedStep: 'check' as const }),
          agentName: agent,
          trial: t,
          tags: [c % 2 === 0 ? 'even' : 'odd'],
          changes: {
            added: 1,
            modified: 0,
            deleted: 0,
            linesAdded: 3,
            linesRemoved: 0,
            files: [{ path: 'out.txt', status: 'added' }],
            file: `${dir}/changes.diff`,
            diffBytes: 100,
          },
          trajectory: { format: 'claude-code', file: `${dir}/trajectory.json`, steps: 5, toolCalls: 4 },
        });
      }
    }
  }
  const report: Report = {
    summary: {
      total: results.length,
      passed: results.filter((row) => row.passed).length,
      failed: results.filter((row) => !row.passed).length,
    },
    results,
    scoreboard: buildScoreboard(results, { rule: 'majority' }),
  };
  const path = join(root, '.gz-bench', 'report.json');
  await writeFile(path, JSON.stringify(report));
  return path;
}
