// The resident memory of a whole harness: every process descended from the harness's main process or
// in its process group or session, except the agents' own processes (those carrying gz-bench's case
// token, GZ_BENCH_CASE_TOKEN, and their descendants). /proc/<pid>/status VmRSS, summed, every ~50 ms.
import { readdirSync, readFileSync } from 'node:fs';

const CASE_TOKEN = 'GZ_BENCH_CASE_TOKEN=';

/** pid, command name, parent, process group and session of every process, from /proc/<pid>/stat. */
function processTable() {
  const table = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const text = readOrUndefined(`/proc/${entry}/stat`);
    if (text === undefined) continue;
    // The command name is in parentheses and may hold anything, parentheses included.
    const close = text.lastIndexOf(')');
    const [, ppid, pgrp, session] = text.slice(close + 2).split(' ');
    const comm = text.slice(text.indexOf('(') + 1, close);
    table.set(Number(entry), { comm, ppid: Number(ppid), pgrp: Number(pgrp), session: Number(session) });
  }
  return table;
}

function readOrUndefined(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The harness's processes now: pid → command name. */
function harnessProcesses(rootPid) {
  const table = processTable();
  const children = new Map();
  for (const [pid, { ppid }] of table) {
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(pid);
  }
  const members = new Map();
  const visit = (pid) => {
    const entry = table.get(pid);
    if (entry === undefined || members.has(pid)) return;
    // An agent and everything it started are the agent's, not the harness's.
    if (pid !== rootPid && readOrUndefined(`/proc/${pid}/environ`)?.includes(CASE_TOKEN)) return;
    members.set(pid, entry.comm);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(rootPid);
  for (const [pid, { pgrp, session }] of table) if (pgrp === rootPid || session === rootPid) visit(pid);
  return members;
}

function rssBytes(pid) {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readOrUndefined(`/proc/${pid}/status`) ?? '');
  return match === null ? 0 : Number(match[1]) * 1024;
}

/**
 * Samples the harness rooted at `rootPid` until `stop()`, which returns the peak sum in bytes. A
 * process counts from its second sample on with the same command name: a child caught between fork
 * and exec still shows its parent's whole (shared) RSS for a moment, which no process really holds.
 */
export function sampleHarnessRss(rootPid, intervalMs = 50) {
  let previous = new Map();
  let peak = 0;
  const sample = () => {
    const current = harnessProcesses(rootPid);
    let sum = 0;
    for (const [pid, comm] of current) if (previous.get(pid) === comm) sum += rssBytes(pid);
    previous = current;
    peak = Math.max(peak, sum);
  };
  const timer = setInterval(sample, intervalMs);
  sample();
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
