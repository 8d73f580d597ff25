import { mkdtemp, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../process/sandbox.js';
import type { Case } from '../suite/schema.js';
import { removeTree } from '../workspace/remove-tree.js';
import { runCase } from './run-case.js';

// An agent that never stops asking its model for more, printing each reply's usage as it goes, is
// stopped as soon as its reported usage passes the budget: not at its timeout, and with its whole
// process tree (a child it started among them) ended.

const probe = await probeSandbox();
const SANDBOXES: Array<'none' | 'bwrap'> = ['none', ...(probe.available ? (['bwrap'] as const) : [])];

// Prints a Claude Code reply of 1,000 input tokens every 50 ms, forever, after starting a child that
// would outlive it; each reply's number goes to replies.txt first.
const ENDLESS_AGENT = `
const { spawn } = require('node:child_process');
const { appendFileSync } = require('node:fs');
spawn('sleep', ['311.37'], { stdio: 'ignore' });
let n = 0;
setInterval(() => {
  n++;
  appendFileSync('replies.txt', n + '\\n');
  const message = { id: 'r' + n, model: 'm', content: [{ type: 'tool_use', id: 't' + n, name: 'Bash', input: { command: 'true' } }],
    usage: { input_tokens: 1000, output_tokens: 0 } };
  process.stdout.write(JSON.stringify({ type: 'assistant', message, parent_tool_use_id: null }) + '\\n');
}, 50);
`;

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gzb-live-budget-')));
  await writeFile(join(root, 'agent.cjs'), ENDLESS_AGENT);
});
afterEach(async () => {
  await removeTree(root);
});

const CASE: Case = { id: 'endless', prompt: 'p', timeoutSec: 60, checks: [{ kind: 'fileExists', path: 'done.txt' }] };

/** The processes that run the agent's child, `sleep 311.37`. */
async function sleepers(): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline === 'sleep\u0000311.37\u0000') found.push(pid);
  }
  return found;
}

describe.each(SANDBOXES)('a budget that holds while the agent runs (sandbox %s)', (sandbox) => {
  it('stops the agent at the reply that passes maxTokens, over budget with the usage at the stop', async () => {
    const started = Date.now();
    const result = await runCase(CASE, {
      cmd: `${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'agent.cjs'))}`,
      usage: { builtin: 'claude-code' },
      budget: { maxTokens: 4500 },
      sandbox: { kind: sandbox },
      tmpDir: root,
      keep: true,
      killGraceMs: 500,
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result).toMatchObject({
      passed: false,
      outcome: 'overBudget',
      failedStep: 'agent',
      error:
        'the agent reported 5000 tokens, over the budget of 4500 (maxTokens); it was stopped as its output reported it',
    });
    expect(result.agent?.usage).toMatchObject({ inputTokens: 5000, turns: 5 });
    const workspace = result.workspace as string;
    // Stopped within a reply of crossing: the fifth passed the budget, and at most one more began.
    const replies = (await readFile(join(workspace, 'replies.txt'), 'utf8')).trim().split('\n');
    expect(replies.length).toBeGreaterThanOrEqual(5);
    expect(replies.length).toBeLessThanOrEqual(6);
    // Its child, seen from here by its command line (in a pid namespace its own pid means nothing here).
    expect(await sleepers()).toEqual([]);
    await removeTree(join(workspace, '..'));
    expect((await readdir(root)).sort()).toEqual(['agent.cjs']);
  });

  it('lets an agent within its budget finish, and checks it after the fact as before', async () => {
    const result = await runCase(CASE, {
      cmd: 'printf \'{"type":"result","usage":{"input_tokens":10,"output_tokens":5},"num_turns":1}\\n\' && touch done.txt',
      usage: { builtin: 'claude-code' },
      budget: { maxTokens: 4500 },
      sandbox: { kind: sandbox },
      tmpDir: root,
    });
    expect(result).toMatchObject({ passed: true, outcome: 'passed' });
    expect(result.agent?.usage).toMatchObject({ inputTokens: 10, outputTokens: 5, turns: 1 });
  });
});
