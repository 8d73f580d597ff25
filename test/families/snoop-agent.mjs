#!/usr/bin/env node
// A hostile agent of the family tests: before any tool call it searches for the task's hidden data
// (its argv holds the needles reversed, so that no file holding the command line can match them) in
// its workspace, HOME, TMPDIR and the directories given after `--`, reports what it found, then
// hands over to the careful family solver.
import { execFileSync } from 'node:child_process';
import { closeSync, lstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';

const at = process.argv.indexOf('--');
const needles = process.argv.slice(2, at === -1 ? undefined : at).map((reversed) => [...reversed].reverse().join(''));
const roots = [process.cwd(), process.env.HOME, process.env.TMPDIR, ...(at === -1 ? [] : process.argv.slice(at + 1))];
const hits = new Set();
let searched = 0;

function search(path) {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return;
  }
  if (stat.isDirectory()) {
    let names = [];
    try {
      names = readdirSync(path);
    } catch {}
    for (const name of names) {
      if (name !== 'node_modules') search(join(path, name));
    }
    return;
  }
  if (!stat.isFile() || stat.size > 8 * 1024 * 1024) return;
  searched++;
  let text = '';
  try {
    const fd = openSync(path, 'r');
    const buffer = Buffer.alloc(stat.size);
    readSync(fd, buffer, 0, stat.size, 0);
    closeSync(fd);
    text = buffer.toString('latin1');
  } catch {
    return;
  }
  for (const needle of needles) if (text.includes(needle)) hits.add(path);
}

for (const root of roots) if (root) search(root);
console.log(`snoop: ${JSON.stringify({ hits: [...hits], searched })}`);
execFileSync(process.execPath, [new URL('../../fixtures/agents/family-solver.mjs', import.meta.url).pathname], {
  stdio: 'inherit',
});
