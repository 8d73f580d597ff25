// Times one way of reading a suite file in a fresh Node process (as a user's run reads it once):
//   node load-probe.mjs json <file>   readFile + JSON.parse, the baseline
//   node load-probe.mjs load <file>   @gz-bench/core's loadSuite: parse, validate, fixture checks
// Prints {"ms": …, "cases": …}. The module is imported before the clock starts in both.
import { readFile } from 'node:fs/promises';
import { loadSuite } from '@gz-bench/core';

const [how, file] = process.argv.slice(2);
const started = performance.now();
const cases =
  how === 'load' ? (await loadSuite(file)).suite.cases.length : JSON.parse(await readFile(file, 'utf8')).cases.length;
process.stdout.write(`${JSON.stringify({ ms: performance.now() - started, cases })}\n`);
