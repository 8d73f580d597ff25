import { loadSuite } from '@gz-bench/core';
import { assertArmsLoad } from './arm-flags.js';
import { EXIT } from './exit-codes.js';
import { notReproducedText } from './not-reproduced.js';
import { parseStrict } from './parse-args.js';
import { UsageError } from './usage-error.js';

/** `gz-bench validate <suite.json>`: structural validation, and its arms' skills. */
export async function validateCommand(args: string[]): Promise<number> {
  const { positionals } = parseStrict(args, {});
  if (positionals.length !== 1) throw new UsageError('validate takes exactly one suite file');
  const file = positionals[0] as string;
  const { suite, file: absolute } = await loadSuite(file);
  // Its arms' skills too: a run would refuse a bad one before anything ran.
  await assertArmsLoad({ arms: undefined, baselineArm: undefined }, [{ file: absolute, suite }]);
  const count = suite.cases.length;
  process.stdout.write(`${file}: valid suite "${suite.name}" with ${count} ${count === 1 ? 'case' : 'cases'}\n`);
  process.stdout.write(await notReproducedText(file, suite, absolute));
  return EXIT.passed;
}
