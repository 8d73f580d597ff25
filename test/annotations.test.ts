import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Report, ReportResult } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginConfig, pluginProjectFiles, replyCase, SCRIPTED_CMD } from './support/plugin-project.js';
import { readReport, resultOf } from './support/report.js';
import { runVitest } from './support/run.js';
import { type HtmlAnnotation, htmlAttachmentText, htmlReportAnnotations } from './support/vitest-html.js';

// Each cell's test carries its trials' outcomes and files as Vitest annotations, so Vitest's own
// viewers show them: checked here in what `--reporter=html` writes (the data `vitest --ui` serves
// too), after a plain run, after sharded blobs merged, and with an annotate API that fails.

const REPORT = '.gz-bench/report.json';
const cleanup = cleanupAfterAll();

const ALPHA = {
  name: 'alpha',
  cases: [
    {
      id: 'write-hello',
      prompt: "Create hello.txt containing 'hi'.",
      checks: [{ kind: 'fileContains', path: 'hello.txt', text: 'hi' }],
    },
    replyCase('wrong', 'one', 'uno'),
  ],
};

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** `type: message` of each annotation, for one readable comparison. */
function listed(annotations: readonly HtmlAnnotation[]): string[] {
  return annotations.map(
    (a) => `${a.type}: ${a.message}${a.attachment?.contentType ? ` (${a.attachment.contentType})` : ''}`,
  );
}

function annotationOf(annotations: readonly HtmlAnnotation[], type: string, message: string): HtmlAnnotation {
  const found = annotations.find((a) => a.type === type && a.message === message);
  if (!found) throw new Error(`no ${type} "${message}" among ${JSON.stringify(listed(annotations))}`);
  return found;
}

/** The file a report row names, read from the project. */
function rowFile(dir: string, display: string | undefined): Promise<string> {
  if (display === undefined) throw new Error('the row names no file');
  return readFile(join(dir, display), 'utf8');
}

describe.concurrent('trials as Vitest annotations', () => {
  it('--reporter=html shows each trial outcome, error and agent.log', async ({ expect }) => {
    const p = await cleanup.project({
      ...pluginProjectFiles({ cmd: SCRIPTED_CMD }),
      'bench/a.bench.json': ALPHA,
    });
    const run = await runVitest(['run', '--reporter=html', '--reporter=default'], { cwd: p.dir });
    expect(run.exitCode, output(run)).toBe(1);
    const report = await readReport(p.dir, REPORT);
    const tests = await htmlReportAnnotations(p.dir);
    expect([...tests.keys()].sort()).toEqual(['alpha > write-hello', 'alpha > wrong']);

    const wrong = tests.get('alpha > wrong') ?? [];
    expect(listed(wrong).filter((line) => !/gz-bench\.(changes|trajectory)/.test(line))).toEqual([
      'gz-bench.outcome: failed',
      'gz-bench.trial: failed: output does not match /^uno$/m',
      'gz-bench.log: agent log (text/plain)',
    ]);
    for (const id of ['write-hello', 'wrong']) {
      const row = resultOf(report, id);
      const annotations = tests.get(`alpha > ${id}`) ?? [];
      const log = annotationOf(annotations, 'gz-bench.log', 'agent log');
      const text = await htmlAttachmentText(p.dir, log);
      expect(text).toBe(await rowFile(p.dir, row.agent?.log));
      expect(text).toContain(id === 'wrong' ? 'one' : 'done');
      // The diff rides along the same way, and the trajectory where the agent's stream gives one.
      expect(row.changes?.file).toBeDefined();
      const diff = annotationOf(annotations, 'gz-bench.changes', 'changes');
      expect(await htmlAttachmentText(p.dir, diff)).toBe(await rowFile(p.dir, row.changes?.file));
      if (row.trajectory?.file !== undefined) {
        const trajectory = annotationOf(annotations, 'gz-bench.trajectory', 'trajectory');
        expect(await htmlAttachmentText(p.dir, trajectory)).toBe(await rowFile(p.dir, row.trajectory.file));
      }
    }
    expect(listed(tests.get('alpha > write-hello') ?? []).slice(0, 2)).toEqual([
      'gz-bench.outcome: passed',
      'gz-bench.trial: passed',
    ]);
  });

  it("attaches a row's changes.diff and trajectory.json, and nothing outside the logs", async ({ expect }) => {
    // A resumed run keeps the earlier passing rows as they are: rows placed here name a diff and a
    // trajectory beside their agent.log, and one names a file outside the logs.
    const p = await cleanup.project({
      ...pluginProjectFiles({ cmd: SCRIPTED_CMD, trials: 2, passRule: 'any' }),
      'bench/a.bench.json': { name: 'alpha', cases: [...ALPHA.cases, replyCase('hostile', 'ok')] },
      'secret.txt': 'not for the report\n',
    });
    const first = await runVitest(['run'], { cwd: p.dir });
    expect(first.exitCode, output(first)).toBe(1);
    const report = await readReport(p.dir, REPORT);
    const placed = new Map<string, { diff: string; trajectory: string }>();
    const rows: ReportResult[] = [];
    for (const row of report.results) {
      if (row.id === 'write-hello' && row.agent?.log) {
        const dir = dirname(row.agent.log);
        const diff = `--- a/hello.txt\n+++ b/hello.txt\n@@ -0,0 +1 @@\n+hi trial ${row.trial}\n`;
        const trajectory = `${JSON.stringify({ schema_version: 'ATIF-v1.4', session_id: `t${row.trial}`, steps: [] })}\n`;
        await writeFile(join(p.dir, dir, 'changes.diff'), diff);
        await writeFile(join(p.dir, dir, 'trajectory.json'), trajectory);
        placed.set(`trial ${row.trial}`, { diff, trajectory });
        rows.push({
          ...row,
          changes: {
            added: 1,
            modified: 0,
            deleted: 0,
            linesAdded: 1,
            linesRemoved: 0,
            files: [{ path: 'hello.txt', status: 'added', linesAdded: 1, linesRemoved: 0 }],
            file: `${dir}/changes.diff`,
            diffBytes: diff.length,
          },
          trajectory: { format: 'claude-code', file: `${dir}/trajectory.json`, steps: 0, toolCalls: 0 },
        });
      } else if (row.id === 'hostile' && row.agent) {
        rows.push({
          ...row,
          agent: { ...row.agent, log: 'secret.txt' },
          changes: { ...emptyChanges(), file: `${dirname(row.agent.log ?? '')}/../../../../secret.txt` },
          trajectory: { format: 'codex', file: join(p.dir, 'secret.txt'), steps: 0, toolCalls: 0 },
        });
      } else rows.push(row);
    }
    await writeFile(join(p.dir, REPORT), JSON.stringify({ ...report, results: rows } satisfies Report));

    const resumed = await runVitest(['run', '--reporter=html'], {
      cwd: p.dir,
      env: { GZ_BENCH_ONLY_FAILED: REPORT },
    });
    expect(resumed.exitCode, output(resumed)).toBe(1);
    const tests = await htmlReportAnnotations(p.dir);
    const hello = tests.get('alpha > write-hello') ?? [];
    for (const [trial, files] of placed) {
      const diff = annotationOf(hello, 'gz-bench.changes', `${trial} changes`);
      expect(diff.attachment?.contentType).toBe('text/x-diff');
      expect(await htmlAttachmentText(p.dir, diff)).toBe(files.diff);
      const trajectory = annotationOf(hello, 'gz-bench.trajectory', `${trial} trajectory`);
      expect(trajectory.attachment?.contentType).toBe('application/json');
      expect(await htmlAttachmentText(p.dir, trajectory)).toBe(files.trajectory);
    }
    expect(listed(hello).slice(0, 3)).toEqual([
      'gz-bench.outcome: 2/2 passed: passed, passed',
      'gz-bench.trial: trial 1 passed',
      'gz-bench.changes: trial 1 changes (text/x-diff)',
    ]);
    // The rows that name a file outside the logs directory get their outcome, and no attachment.
    expect(listed(tests.get('alpha > hostile') ?? [])).toEqual([
      'gz-bench.outcome: 2/2 passed: passed, passed',
      'gz-bench.trial: trial 1 passed',
      'gz-bench.trial: trial 2 passed',
    ]);
    // The re-run cell's trials are annotated from their new rows.
    const wrong = tests.get('alpha > wrong') ?? [];
    expect(listed(wrong).filter((line) => /outcome|trial|log/.test(line))).toEqual([
      'gz-bench.outcome: 0/2 passed: failed, failed',
      'gz-bench.trial: trial 1 failed: output does not match /^uno$/m',
      'gz-bench.changes: trial 1 changes (text/x-diff)',
      'gz-bench.log: trial 1 agent log (text/plain)',
      'gz-bench.trial: trial 2 failed: output does not match /^uno$/m',
      'gz-bench.changes: trial 2 changes (text/x-diff)',
      'gz-bench.log: trial 2 agent log (text/plain)',
    ]);
  });

  it('keeps the attachments through --shard blobs and --merge-reports', async ({ expect }) => {
    const p = await cleanup.project({
      ...pluginProjectFiles({ cmd: SCRIPTED_CMD }),
      'bench/a.bench.json': ALPHA,
      'bench/b.bench.json': { name: 'beta', cases: [replyCase('b-one', 'bee')] },
    });
    for (const index of [1, 2]) {
      const shard = await runVitest(['run', `--shard=${index}/2`, '--reporter=blob'], { cwd: p.dir });
      expect(shard.exitCode, output(shard)).toBe(index === 1 ? 1 : 0);
    }
    // The blobs name the copies in `.vitest-attachments/`: the merge machine gets that directory
    // with the blobs, and the logs only through the copies.
    await rm(join(p.dir, '.gz-bench/logs'), { recursive: true });
    const merged = await runVitest(['--merge-reports', '--reporter=html'], { cwd: p.dir });
    expect(merged.exitCode, output(merged)).toBe(1);
    const tests = await htmlReportAnnotations(p.dir);
    expect([...tests.keys()].sort()).toEqual(['alpha > write-hello', 'alpha > wrong', 'beta > b-one']);
    const wrong = tests.get('alpha > wrong') ?? [];
    expect(listed(wrong).slice(0, 2)).toEqual([
      'gz-bench.outcome: failed',
      'gz-bench.trial: failed: output does not match /^uno$/m',
    ]);
    expect(await htmlAttachmentText(p.dir, annotationOf(wrong, 'gz-bench.log', 'agent log'))).toMatch(/^one$/m);
    const bee = tests.get('beta > b-one') ?? [];
    expect(await htmlAttachmentText(p.dir, annotationOf(bee, 'gz-bench.log', 'agent log'))).toMatch(/^bee$/m);
  });

  // Vitest 4.1.12 throws at once from the second repeat of a test; another runner may lack the API
  // or reject the promise. A setup file breaks `annotate` on every test's context in each way.
  for (const mode of ['missing', 'throws', 'rejects']) {
    it(`an annotate API that ${mode === 'missing' ? 'is missing' : mode} changes no verdict`, async ({ expect }) => {
      const p = await cleanup.project({
        'package.json': { name: 'bench-user', private: true, type: 'module' },
        'vitest.config.ts': pluginConfig({ cmd: SCRIPTED_CMD }).replace(
          'plugins: [',
          "test: { setupFiles: ['./break-annotate.js'] }, plugins: [",
        ),
        'break-annotate.js': BREAK_ANNOTATE,
        'bench/a.bench.json': ALPHA,
      });
      const run = await runVitest(['run'], { cwd: p.dir, env: { BREAK_ANNOTATE: mode } });
      expect(run.exitCode, output(run)).toBe(1);
      const printed = `${String(run.stdout)}${String(run.stderr)}`;
      expect(printed, output(run)).toContain('Tests  1 failed | 1 passed (2)');
      expect(printed).toContain('CaseFailure: output does not match /^uno$/m');
      expect(printed).not.toContain('annotations refused');
      expect(printed).toContain(`broke annotate: ${mode}`);
      const report = await readReport(p.dir, REPORT);
      expect(report.results.map((r) => `${r.id} ${r.outcome}`)).toEqual(['write-hello passed', 'wrong failed']);
    });
  }
});

const BREAK_ANNOTATE = `import { beforeEach } from 'vitest';
const mode = process.env.BREAK_ANNOTATE;
beforeEach((context) => {
  console.log('broke annotate: ' + mode);
  if (mode === 'missing') delete context.annotate;
  else if (mode === 'throws') context.annotate = () => { throw new Error('annotations refused'); };
  else context.annotate = () => Promise.reject(new Error('annotations refused'));
});
`;

function emptyChanges(): NonNullable<ReportResult['changes']> {
  return { added: 0, modified: 0, deleted: 0, linesAdded: 0, linesRemoved: 0, files: [], diffBytes: 0 };
}
