import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, readdir, readFile, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';
import { fixturePath } from '../support/paths.js';
import { resultOf } from '../support/report.js';
import { agent, parseReport, SCRIPT_CMD, type Scene, sceneFactory, shared, treeDigest } from './support.js';

// Adversarial tests of fixture repositories: secrets and links in a fixture must not reach the
// workspace, and an agent that rewrites the checker must be caught and must never reach the fixture.

const scene = sceneFactory();
const WITH_SECRETS = fixturePath('repos/with-secrets');
const BUGGY_SUM = fixturePath('repos/buggy-sum');

describe.concurrent('adversarial: fixture repositories', () => {
  describe('secrets, special files and links in the fixture', () => {
    /**
     * A copy of fixtures/repos/with-secrets with what git cannot hold added: a FIFO, and an absolute
     * symlink to a file outside the fixture.
     */
    const secretsRun = (flags: string[]) =>
      shared(async () => {
        const where = await scene();
        const fixture = join(where.project.dir, 'fixture');
        await cp(WITH_SECRETS, fixture, { recursive: true, verbatimSymlinks: true });
        await promisify(execFile)('mkfifo', [join(fixture, 'pipe')]);
        const outside = await where.project.write('outside/target.txt', 'outside\n');
        await symlink(outside, join(fixture, 'abs-link'));
        await where.writeSuite('secrets', { repo: 'fixture' }, [
          {
            id: 'copied',
            prompt: 'true',
            checks: [
              { kind: 'fileNotExists', path: '.env' },
              { kind: 'fileExists', path: '.env.example' },
              { kind: 'fileExists', path: 'config/app.json' },
              { kind: 'fileExists', path: 'README.md' },
              { kind: 'fileNotExists', path: 'link-to-readme' },
              { kind: 'fileNotExists', path: 'abs-link' },
              { kind: 'fileNotExists', path: 'pipe' },
            ],
          },
          {
            // Were the links recreated, these writes would land in the fixture and outside it.
            id: 'through-links',
            prompt: `${agent('write-paths.mjs', 'link-to-readme', 'abs-link')}; ls -l`,
          },
          {
            id: 'allowed',
            prompt: 'true',
            checks: [
              { kind: 'fileContains', path: '.env', text: 'API_TOKEN=fake-token' },
              { kind: 'fileExists', path: '.ssh/id_rsa' },
              { kind: 'fileExists', path: 'keys/server.pem' },
              { kind: 'fileNotExists', path: 'pipe' },
            ],
          },
        ]);
        const before = await treeDigest(fixture);
        const outsideBefore = await readFile(outside, 'utf8');
        const result = await where.runSuite(['--sandbox', 'none', ...flags]);
        return {
          result,
          before,
          after: await treeDigest(fixture),
          outsideAfter: await readFile(outside, 'utf8'),
          outsideBefore,
          left: await where.leftovers(),
        };
      });
    const asJson = secretsRun(['--json']);
    const asTable = secretsRun([]);
    const allowingSecrets = secretsRun(['--json', '--allow-secrets']);

    it('does not copy secrets, links or the FIFO, and lists them in the report', async ({ expect }) => {
      const { result, before, after, left } = await asJson();
      const copied = resultOf(parseReport(result), 'copied');
      expect(copied.error).toBeUndefined();
      expect(copied.passed).toBe(true);
      expect(copied.fixtureSkipped).toEqual([
        { path: '.env', reason: 'secret' },
        { path: '.ssh', reason: 'secret' },
        { path: 'abs-link', reason: 'symlink' },
        { path: 'keys/server.pem', reason: 'secret' },
        { path: 'link-to-readme', reason: 'symlink' },
        { path: 'pipe', reason: 'special' },
      ]);
      expect(copied.warnings).toEqual([
        'secret-looking fixture files were not copied (allowSecrets copies them): .env, .ssh, keys/server.pem',
      ]);
      // The secret's value is nowhere in what the run printed either.
      expect(`${result.stdout}${result.stderr}`).not.toContain('fake-token-for-gz-bench-tests');
      expect(after).toEqual(before);
      expect(left).toEqual({ files: [], processes: [] });
    });

    it('an agent writing through where the links were writes plain workspace files', async ({ expect }) => {
      const { result, before, after, outsideBefore, outsideAfter } = await asJson();
      const through = resultOf(parseReport(result), 'through-links');
      expect(through.agent?.outputTail).toContain('link-to-readme: written');
      expect(through.agent?.outputTail).toMatch(/^-[rw-]{9} .* abs-link$/m);
      expect(through.agent?.outputTail).toMatch(/^-[rw-]{9} .* link-to-readme$/m);
      // Neither the fixture's README (the relative link's target) nor the absolute link's target changed.
      expect(after).toEqual(before);
      expect(outsideAfter).toBe(outsideBefore);
    });

    it('prints the secrets warning under the table', async ({ expect }) => {
      const { result, before, after, left } = await asTable();
      expect(result.stdout).toMatch(
        /^warning .*copied.*: secret-looking fixture files were not copied \(allowSecrets copies them\): \.env, \.ssh, keys\/server\.pem$/m,
      );
      expect(after).toEqual(before);
      expect(left).toEqual({ files: [], processes: [] });
    });

    it('--allow-secrets copies them, but still no link or FIFO', async ({ expect }) => {
      const { result, before, after, left } = await allowingSecrets();
      const allowed = resultOf(parseReport(result), 'allowed');
      expect(allowed.error).toBeUndefined();
      expect(allowed.fixtureSkipped).toEqual([
        { path: 'abs-link', reason: 'symlink' },
        { path: 'link-to-readme', reason: 'symlink' },
        { path: 'pipe', reason: 'special' },
      ]);
      expect(allowed.warnings).toBeUndefined();
      expect(after).toEqual(before);
      expect(left).toEqual({ files: [], processes: [] });
    });
  });

  describe('an agent against the checker of buggy-sum', () => {
    const buggySum = (where: Scene) => relative(where.project.dir, BUGGY_SUM);
    const checker = { kind: 'command', run: 'sh checks/run.sh' } as const;
    const fix = "sed -i 's/let i = 1/let i = 0/' src/sum.js";

    const tableRun = shared(async () => {
      const where = await scene();
      await where.writeSuite('cheats', { repo: buggySum(where), protect: ['test/'] }, [
        { id: 'cheat', prompt: agent('rewrite-checker.mjs', 'checks/run.sh'), checks: [checker] },
      ]);
      const before = await treeDigest(BUGGY_SUM);
      const result = await where.runSuite();
      return { result, before, after: await treeDigest(BUGGY_SUM), left: await where.leftovers() };
    });

    const jsonRun = shared(async () => {
      const where = await scene();
      const marker = join(where.project.dir, 'hook-ran-');
      await where.writeSuite('buggy-sum', { repo: buggySum(where), protect: ['test/'] }, [
        { id: 'cheat-checker', prompt: agent('rewrite-checker.mjs', 'checks/run.sh'), checks: [checker] },
        { id: 'cheat-test', prompt: agent('rewrite-checker.mjs', 'test/sum.test.mjs'), checks: [checker] },
        { id: 'honest', prompt: fix, checks: [checker] },
        {
          id: 'git-diff',
          git: true,
          prompt: fix,
          // Naming src/sum.js in a command would protect it (and undo the fix): compare in a file instead.
          checks: [
            { kind: 'command', run: 'git diff --name-only > changed.txt' },
            { kind: 'fileContains', path: 'changed.txt', text: 'src/sum.js' },
          ],
        },
        {
          id: 'git-diff-named',
          git: true,
          prompt: fix,
          checks: [{ kind: 'command', run: 'git diff --name-only | grep -qx src/sum.js' }],
        },
        {
          id: 'git-hooks',
          git: true,
          prompt: agent('plant-git-hooks.mjs', marker),
          checks: [{ kind: 'command', run: 'git status --short && git checkout -q -b probe' }],
        },
      ]);
      const before = await treeDigest(BUGGY_SUM);
      // No sandbox: the hooks could write the marker, and the fixture is writable to the agent.
      const result = await where.runSuite(['--json', '--sandbox', 'none']);
      return { result, marker, before, after: await treeDigest(BUGGY_SUM), left: await where.leftovers() };
    });

    it('a rewritten checker shows TAMPERED in the table and exits 1', async ({ expect }) => {
      const { result, before, after, left } = await tableRun();
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toMatch(/^cheat +TAMPERED\b.*the agent tampered with protected paths: checks\/run\.sh$/m);
      expect(after).toEqual(before);
      expect(left).toEqual({ files: [], processes: [] });
    });

    it('tampering with the checker or a protected test is reported in the JSON', async ({ expect }) => {
      const { result, before, after, left } = await jsonRun();
      expect(result.exitCode).toBe(1);
      const report = parseReport(result);
      expect(resultOf(report, 'cheat-checker')).toMatchObject({
        passed: false,
        failedStep: 'tamper',
        tampered: ['checks/run.sh'],
        error: 'the agent tampered with protected paths: checks/run.sh',
      });
      expect(resultOf(report, 'cheat-test')).toMatchObject({
        passed: false,
        failedStep: 'tamper',
        tampered: ['test/sum.test.mjs'],
      });
      // The checker ran on the restored files: the bug is still there, so it fails.
      expect(resultOf(report, 'cheat-checker').checkResults).toMatchObject([{ kind: 'command', passed: false }]);
      expect(after).toEqual(before);
      expect(left).toEqual({ files: [], processes: [] });
    });

    it('an honest fix passes the checker, and git diff shows it', async ({ expect }) => {
      const report = parseReport((await jsonRun()).result);
      expect(resultOf(report, 'honest')).toMatchObject({ passed: true, checkResults: [{ passed: true }] });
      expect(resultOf(report, 'honest').tampered).toBeUndefined();
      expect(resultOf(report, 'git-diff').error).toBeUndefined();
      expect(resultOf(report, 'git-diff').passed).toBe(true);
    });

    // Only the files a command check runs are protected; one it merely looks at is the agent's to change.
    it('a command check that only names a fixture file does not protect it', async ({ expect }) => {
      const named = resultOf(parseReport((await jsonRun()).result), 'git-diff-named');
      expect(named.tampered).toBeUndefined();
      expect(named.passed).toBe(true);
    });

    it('git hooks and fsmonitor planted by the agent do not run in a git command check', async ({ expect }) => {
      const { result, marker } = await jsonRun();
      const hooks = resultOf(parseReport(result), 'git-hooks');
      // The trap was armed: run without gz-bench's git settings, it fired.
      expect(hooks.agent?.outputTail).toContain('planted');
      expect(existsSync(`${marker}armed`)).toBe(true);
      expect(hooks.error).toBeUndefined();
      expect(existsSync(marker)).toBe(false);
    });
  });

  describe('suites that cannot be protected', () => {
    it('validate and run refuse a protected path that is a symlink in the fixture', async ({ expect }) => {
      const where = await scene();
      const before = await treeDigest(WITH_SECRETS);
      await where.writeSuite(
        'linked',
        { repo: relative(where.project.dir, WITH_SECRETS), protect: ['link-to-readme'] },
        [{ id: 'a', prompt: 'true' }],
      );
      const message = 'gz-bench: suite.json: invalid suite at protect: protected path is a symlink: link-to-readme';
      for (const args of [
        ['validate', 'suite.json'],
        ['run', 'suite.json', '--cmd', SCRIPT_CMD],
      ]) {
        const result = await where.cli(args);
        expect(result.exitCode).toBe(2);
        expect(result.stderr).toBe(message);
        expect(result.stdout).toBe('');
      }
      expect(await treeDigest(WITH_SECRETS)).toEqual(before);
      expect(await readdir(where.tmp)).toEqual([]);
    });

    it('validate refuses a repo that does not exist', async ({ expect }) => {
      const where = await scene();
      await where.writeSuite('missing', { repo: 'nope' }, [{ id: 'a', prompt: 'true' }]);
      const result = await where.cli(['validate', 'suite.json']);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(`gz-bench: suite.json: invalid suite at repo: fixture repository not found: nope`);
    });
  });
});
