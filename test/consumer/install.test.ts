import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Result } from 'execa';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { describeResult, type PackedPackages, type RunOptions, run, runOk, since, userEnv } from './support.js';

// The packed packages where users install them: for each lane (a Vitest, Vite and Node combination),
// a fresh project outside the repository, `npm install` of Vitest and both tarballs, then the CLI, the
// plugin in a vitest.config.ts and a plain import, run with npx in that project as a user would.
//
// Installs are network-bound and this machine has 2 cores: all lanes' installs start together when the
// file starts (at most INSTALL_CONCURRENCY at once), and each lane's tests wait only for their own.
// Set CONSUMER_INSTALLS=1 to install one lane at a time.
//
// Runs in the `consumer` project only, whose globalSetup packs the packages (without it, as when the
// file is run outside that project, it skips itself).

const pack = inject('gzConsumerPack');

interface Lane {
  key: string;
  title: string;
  vitest: string;
  /** A Vite to pin beside Vitest; Vitest's own otherwise. */
  vite?: string;
  viteMajor: number;
  nodeMajor: number;
  /** Installs Node from the npm registry for this lane (`npm i --prefix <dir> node@22`); the machine's otherwise. */
  nodePackage?: string;
}

const LANES: Lane[] = [
  { key: 'A', title: 'lane A: Vitest 4.1.12, its Vite 8, Node 20', vitest: '4.1.12', viteMajor: 8, nodeMajor: 20 },
  {
    key: 'B',
    title: 'lane B: Vitest 5.1.2, Node 22 (node@22)',
    vitest: '5.1.2',
    viteMajor: 8,
    nodeMajor: 22,
    nodePackage: 'node@22',
  },
  {
    key: 'C',
    title: 'lane C: Vitest 4.1.12, vite@6.4.6, Node 20',
    vitest: '4.1.12',
    vite: '6.4.6',
    viteMajor: 6,
    nodeMajor: 20,
  },
  {
    key: 'D',
    title: 'lane D: Vitest 4.1.12, vite@7.3.8, Node 20',
    vitest: '4.1.12',
    vite: '7.3.8',
    viteMajor: 7,
    nodeMajor: 20,
  },
];

/** How many lanes install at once (measured on 2 cores: all four together is fastest). */
const INSTALL_CONCURRENCY = Number(process.env.CONSUMER_INSTALLS ?? LANES.length);
const INSTALL_TIMEOUT = 300_000;

/** A lane's project, installed. */
interface Installed {
  project: string;
  env: Record<string, string>;
}

/** Kills every command still running when the file ends. */
const stop = new AbortController();
const roots: string[] = [];
const installs = new Map<string, Promise<Installed>>();
const timings = new Map<string, Record<string, number>>();

function record(lane: Lane, step: string, ms: number): void {
  timings.set(lane.key, { ...timings.get(lane.key), [step]: ms });
}

beforeAll(() => {
  if (!pack) return;
  const limit = limiter(Math.max(1, INSTALL_CONCURRENCY));
  for (const lane of LANES) {
    const installing = limit(() => install(lane, pack));
    installing.catch(() => {}); // reported by the lane's own beforeAll
    installs.set(lane.key, installing);
  }
});

afterAll(async () => {
  stop.abort();
  await Promise.allSettled(installs.values());
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
  if (timings.size > 0) {
    const lines = [...timings].map(([key, steps]) => {
      const parts = Object.entries(steps).map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)}s`);
      return `  lane ${key}: ${parts.join(', ')}`;
    });
    console.info(`gz-bench consumer lanes (installs ${INSTALL_CONCURRENCY} at once):\n${lines.join('\n')}`);
  }
});

/** Makes the lane's project: its Node first where the lane brings one, then `npm init -y` and `npm install`. */
async function install(lane: Lane, packed: PackedPackages): Promise<Installed> {
  const start = performance.now();
  const root = await realpath(await mkdtemp(join(tmpdir(), `gz-bench-consumer-${lane.key}-`)));
  roots.push(root);
  let prependPath: string | undefined;
  if (lane.nodePackage) {
    const nodeDir = join(root, 'node');
    await mkdir(nodeDir);
    const nodeStart = performance.now();
    const args = ['install', '--prefix', nodeDir, '--no-audit', '--no-fund', lane.nodePackage];
    await runOk('npm', args, { cwd: root, env: userEnv(), signal: stop.signal });
    record(lane, `${lane.nodePackage} install`, since(nodeStart));
    prependPath = join(nodeDir, 'node_modules/node/bin');
  }
  const env = userEnv({ ...(prependPath ? { prependPath } : {}), extra: { CI: 'true' } });
  const project = join(root, 'project');
  await mkdir(project);
  const options: RunOptions = { cwd: project, env, signal: stop.signal };
  await runOk('npm', ['init', '-y'], options);
  const packages = [`vitest@${lane.vitest}`, ...(lane.vite ? [`vite@${lane.vite}`] : []), packed.core, packed.plugin];
  await runOk('npm', ['install', '--no-audit', '--no-fund', '-D', ...packages], options);
  record(lane, 'install', since(start));
  return { project, env };
}

for (const lane of LANES) {
  describe.skipIf(pack === undefined)(lane.title, () => {
    let installed: Installed = { project: '', env: {} };
    let laneStart = 0;
    const options = (): RunOptions => ({ cwd: installed.project, env: installed.env, signal: stop.signal });
    const npx = (args: string[]) => run('npx', ['--no-install', ...args], options());
    const version = pack?.version ?? '';

    beforeAll(async () => {
      const waitStart = performance.now();
      const found = installs.get(lane.key);
      if (!found) throw new Error(`lane ${lane.key} was not installed`);
      installed = await found;
      record(lane, 'waited for install', since(waitStart));
      laneStart = performance.now();
    }, INSTALL_TIMEOUT);
    afterAll(() => {
      if (laneStart) record(lane, 'tests', since(laneStart));
    });

    it(`runs Node ${lane.nodeMajor}, Vitest ${lane.vitest} and Vite ${lane.vite ?? lane.viteMajor}`, async () => {
      const node = await runOk('node', ['--version'], options());
      expect(node.trim()).toMatch(new RegExp(`^v${lane.nodeMajor}\\.`));
      const vitest = await npx(['vitest', '--version']);
      expect(vitest.exitCode, describeResult(vitest)).toBe(0);
      expect(String(vitest.stdout)).toContain(`vitest/${lane.vitest} `);
      expect(String(vitest.stdout)).toContain(`node-v${lane.nodeMajor}.`);
      const viteOfVitest = await runOk(
        'node',
        [
          '-p',
          "require(require.resolve('vite/package.json', { paths: [require('node:path').dirname(require.resolve('vitest/package.json'))] })).version",
        ],
        options(),
      );
      expect(viteOfVitest.trim()).toMatch(new RegExp(`^${lane.viteMajor}\\.`));
      if (lane.vite) expect(viteOfVitest.trim()).toBe(lane.vite);
    });

    it('gz-bench --version, init, run --cmd "echo done" and run --json', async () => {
      const versionRun = await npx(['gz-bench', '--version']);
      expect(versionRun.exitCode, describeResult(versionRun)).toBe(0);
      expect(String(versionRun.stdout).trim()).toBe(version);

      const init = await npx(['gz-bench', 'init', 'bench-init']);
      expect(init.exitCode, describeResult(init)).toBe(0);
      const suiteFile = join(installed.project, 'bench-init/example-suite.json');
      const suite = JSON.parse(await readFile(suiteFile, 'utf8')) as { $schema?: string; cases: Array<{ id: string }> };
      expect(suite.$schema).toMatch(/^\.\.\/node_modules\/@gz-bench\/[^/]+\/suite\.schema\.json$/);
      const schemaFile = resolve(dirname(suiteFile), suite.$schema ?? '');
      expect(existsSync(schemaFile), `$schema ${suite.$schema} -> ${schemaFile}`).toBe(true);
      expect(JSON.parse(readFileSync(schemaFile, 'utf8'))).toHaveProperty('properties.cases');
      const ids = suite.cases.map((c) => c.id);
      expect(ids.length).toBeGreaterThan(0);

      const table = await npx(['gz-bench', 'run', 'bench-init/example-suite.json', '--cmd', 'echo done']);
      expect(table.exitCode, describeResult(table)).toBe(0);
      const out = String(table.stdout);
      expect(out).toMatch(/^id +result +checks +time\b.*$/m);
      for (const id of ids) expect(out).toMatch(new RegExp(`^${escapeRegExp(id)} +PASS +`, 'm'));
      expect(out).not.toMatch(/^\S+ +FAIL +/m);
      expect(out).toContain(`${ids.length} cases: ${ids.length} passed, 0 failed`);

      const json = await npx(['gz-bench', 'run', 'bench-init/example-suite.json', '--cmd', 'echo done', '--json']);
      expect(json.exitCode, describeResult(json)).toBe(0);
      const report = parseReport(json);
      expect(report.meta).toMatchObject({ gzBenchVersion: version, vitestVersion: lane.vitest });
      expect(report.summary).toMatchObject({ total: ids.length, passed: ids.length, failed: 0 });
      expect(report.results.map((r) => r.id)).toEqual(ids);
    });

    it('vitest run bench/ with gzBench() in vitest.config.ts, and -t <case id>', async () => {
      const agent = join(installed.project, 'agent.mjs');
      await writeFile(
        agent,
        [
          "import { writeFileSync } from 'node:fs';",
          'const prompt = process.argv[2];',
          "writeFileSync('answer.txt', 'agent saw: ' + prompt + '\\n');",
          "console.log('agent done on node ' + process.versions.node);",
          '',
        ].join('\n'),
      );
      await mkdir(join(installed.project, 'bench'));
      const onLaneNode = `Number(process.versions.node.split('.')[0]) === ${lane.nodeMajor}`;
      const suite = {
        name: 'tasks',
        cases: [
          {
            id: 'writes-answer',
            prompt: 'Write answer.txt',
            tags: ['node', 'files'],
            checks: [{ kind: 'fileContains', path: 'answer.txt', text: 'agent saw: Write answer.txt' }],
          },
          {
            id: 'misses-a-file',
            prompt: 'Write nothing else',
            checks: [{ kind: 'fileExists', path: 'never-written.txt' }],
          },
          {
            id: 'runs-a-command',
            prompt: 'Check the Node version',
            tags: ['node'],
            meta: { difficulty: 'easy' },
            checks: [{ kind: 'command', run: `node -e "process.exit(${onLaneNode} ? 0 : 1)"`, expectExit: 0 }],
          },
        ],
      };
      await writeFile(join(installed.project, 'bench/tasks.bench.json'), `${JSON.stringify(suite, null, 2)}\n`);
      const cmd = `node ${agent} "{{prompt}}"`;
      await writeFile(
        join(installed.project, 'vitest.config.ts'),
        [
          "import { gzBench } from '@gz-bench/vitest-plugin';",
          "import { defineConfig } from 'vitest/config';",
          '',
          'export default defineConfig({',
          `  plugins: [gzBench({ cmd: ${JSON.stringify(cmd)}, report: 'out/report.json' })],`,
          '});',
          '',
        ].join('\n'),
      );
      const reportFile = join(installed.project, 'out/report.json');

      const all = await npx(['vitest', 'run', 'bench/']);
      expect(all.exitCode, describeResult(all)).toBe(1);
      const report = JSON.parse(await readFile(reportFile, 'utf8')) as Report;
      expect(report.meta).toMatchObject({ gzBenchVersion: version, vitestVersion: lane.vitest });
      expect(
        report.results.map((r) => [r.id, r.passed]),
        JSON.stringify(report.results, null, 2),
      ).toEqual([
        ['writes-answer', true],
        ['misses-a-file', false],
        ['runs-a-command', true],
      ]);
      expect(report.summary).toMatchObject({ total: 3, passed: 2, failed: 1 });
      expect(report.results[1]).toMatchObject({
        error: 'file does not exist: never-written.txt',
        failedStep: 'check',
        file: 'bench/tasks.bench.json',
        suite: 'tasks',
      });
      expect(report.results[0]?.agent?.outputTail).toContain(`agent done on node ${lane.nodeMajor}.`);
      const out = String(all.stdout);
      const testFiles = out.indexOf('Test Files');
      const header = out.search(/^id +result +checks +time\b.*$/m);
      expect(testFiles, describeResult(all)).toBeGreaterThanOrEqual(0);
      expect(header, 'the gz-bench table comes after Vitest\'s "Test Files"').toBeGreaterThan(testFiles);
      const tableText = out.slice(header);
      expect(tableText).toMatch(/^writes-answer +PASS +/m);
      expect(tableText).toMatch(/^misses-a-file +FAIL +.*file does not exist: never-written\.txt/m);
      expect(tableText).toMatch(/^runs-a-command +PASS +/m);
      expect(tableText).toContain('3 cases: 2 passed, 1 failed');

      await rm(reportFile);
      const one = await npx(['vitest', 'run', 'bench/', '-t', 'writes-answer']);
      expect(one.exitCode, describeResult(one)).toBe(0);
      const oneReport = JSON.parse(await readFile(reportFile, 'utf8')) as Report;
      expect(oneReport.results.map((r) => [r.id, r.passed])).toEqual([['writes-answer', true]]);
      expect(oneReport.summary).toMatchObject({ total: 1, passed: 1, failed: 0 });
      expect(oneReport.meta.vitestVersion).toBe(lane.vitest);

      // The suite's tags, defined by the plugin: no tag is declared in the config.
      await rm(reportFile);
      const tagged = await npx(['vitest', 'run', 'bench/', '--tags-filter', 'node && !files']);
      expect(tagged.exitCode, describeResult(tagged)).toBe(0);
      const taggedReport = JSON.parse(await readFile(reportFile, 'utf8')) as Report;
      expect(taggedReport.results.map((r) => [r.id, r.tags, r.meta])).toEqual([
        ['runs-a-command', ['node'], { difficulty: 'easy' }],
      ]);
    });

    it("puts each trial's outcome and agent.log on its test as annotations, copied to attachmentsDir", async () => {
      // A reporter of Vitest's public API writes every test's annotations to a file: Vitest 4 and 5
      // alike copy a path attachment into their attachmentsDir and name the copy.
      const dir = join(installed.project, 'annotated');
      await mkdir(join(dir, 'bench'), { recursive: true });
      await writeFile(
        join(dir, 'annotations-reporter.mjs'),
        [
          "import { writeFileSync } from 'node:fs';",
          'const seen = {};',
          'export default class {',
          '  onTestCaseResult(testCase) { seen[testCase.name] = testCase.annotations(); }',
          "  onTestRunEnd() { writeFileSync('annotations.json', JSON.stringify(seen)); }",
          '}',
          '',
        ].join('\n'),
      );
      const suite = {
        name: 'annotated',
        cases: [
          { id: 'says-hi', prompt: 'hi', checks: [{ kind: 'outputMatches', pattern: '^hi$', flags: 'm' }] },
          { id: 'says-no', prompt: 'no', checks: [{ kind: 'outputMatches', pattern: '^yes$', flags: 'm' }] },
        ],
      };
      await writeFile(join(dir, 'bench/a.bench.json'), JSON.stringify(suite));
      await writeFile(
        join(dir, 'vitest.config.ts'),
        [
          "import { gzBench } from '@gz-bench/vitest-plugin';",
          "import { defineConfig } from 'vitest/config';",
          `export default defineConfig({ plugins: [gzBench({ cmd: 'echo {{prompt}}' })] });`,
          '',
        ].join('\n'),
      );
      const annotated = await run(
        'npx',
        ['--no-install', 'vitest', 'run', '--reporter=default', '--reporter=./annotations-reporter.mjs'],
        { ...options(), cwd: dir },
      );
      expect(annotated.exitCode, describeResult(annotated)).toBe(1);
      const seen = JSON.parse(await readFile(join(dir, 'annotations.json'), 'utf8')) as Record<
        string,
        Array<{ type: string; message: string; attachment?: { path?: string; contentType?: string } }>
      >;
      const attachmentsDir = join(dir, lane.vitest.startsWith('4.') ? '.vitest-attachments' : '.vitest/attachments');
      for (const [id, word, outcome] of [
        ['says-hi', 'hi', 'passed'],
        ['says-no', 'no', 'failed: output does not match /^yes$/m'],
      ] as const) {
        const annotations = seen[id] ?? [];
        expect(annotations.map((a) => `${a.type}: ${a.message}`).slice(0, 4), JSON.stringify(seen)).toEqual([
          `gz-bench.outcome: ${outcome.split(':')[0]}`,
          `gz-bench.trial: ${outcome}`,
          'gz-bench.changes: changes',
          'gz-bench.log: agent log',
        ]);
        const diff = annotations[2]?.attachment?.path ?? '';
        expect(dirname(diff)).toBe(attachmentsDir);
        expect(annotations[2]?.attachment?.contentType).toBe('text/x-diff');
        const copy = annotations[3]?.attachment?.path ?? '';
        expect(dirname(copy)).toBe(attachmentsDir);
        expect(annotations[3]?.attachment?.contentType).toBe('text/plain');
        expect(await readFile(copy, 'utf8')).toMatch(new RegExp(`^${word}$`, 'm'));
      }
    });

    it('imports with plain Node: no TypeScript-only runtime needs', async () => {
      const core = await runOk(
        'node',
        ['-e', "import('@gz-bench/core').then(m => console.log(typeof m.runCase))"],
        options(),
      );
      expect(core.trim()).toBe('function');
      const plugin = await runOk(
        'node',
        ['-e', "import('@gz-bench/vitest-plugin').then(m => console.log(typeof m.gzBench, typeof m.GzBenchReporter))"],
        options(),
      );
      expect(plugin.trim()).toBe('function function');
    });
  });
}

/** The parts of a gz-bench report these tests read. */
interface Report {
  summary: { total: number; passed: number; failed: number };
  results: Array<{
    id: string;
    passed: boolean;
    error?: string;
    failedStep?: string;
    file?: string;
    suite?: string;
    agent?: { outputTail?: string };
    tags?: string[];
    meta?: Record<string, unknown>;
  }>;
  meta: { gzBenchVersion: string; vitestVersion: string };
}

/** stdout of `--json` is exactly one JSON document. */
function parseReport(result: Result): Report {
  try {
    return JSON.parse(String(result.stdout)) as Report;
  } catch (error) {
    throw new Error(`--json printed no single JSON document (${String(error)})\n${describeResult(result)}`);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Runs at most `max` of the given tasks at once, in the order they were asked for. */
function limiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running >= max) await new Promise<void>((go) => waiting.push(go));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
