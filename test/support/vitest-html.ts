import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REPO_ROOT } from './paths.js';

// What Vitest 4.1's `--reporter=html` wrote, read as its page reads it: `html/html.meta.json.gz`
// (the run's files and tests, in `flatted` JSON) and each path attachment's copy in `html/data/`,
// which the page fetches by the copy's base name.

/** An annotation of a test as the HTML report holds it. */
export interface HtmlAnnotation {
  type: string;
  message: string;
  attachment?: { path?: string; body?: string; contentType?: string };
}

interface HtmlTask {
  type: string;
  name: string;
  annotations?: HtmlAnnotation[];
  tasks?: HtmlTask[];
}

// flatted is @vitest/ui's own dependency: read the report with the very parser the page uses.
const uiRequire = createRequire(join(realpathSync(join(REPO_ROOT, 'node_modules/@vitest/ui')), 'package.json'));
const { parse } = uiRequire('flatted') as { parse(text: string): unknown };

/** The annotations of every test in the HTML report under `dir/html`, by the names of its suites and test (`alpha > wrong`). */
export async function htmlReportAnnotations(dir: string): Promise<Map<string, HtmlAnnotation[]>> {
  const gzipped = await readFile(join(dir, 'html/html.meta.json.gz'));
  const data = parse(gunzipSync(gzipped).toString('utf8')) as { files: HtmlTask[] };
  const tests = new Map<string, HtmlAnnotation[]>();
  const walk = (task: HtmlTask, names: string[]): void => {
    if (task.type === 'test') tests.set([...names, task.name].join(' > '), task.annotations ?? []);
    for (const child of task.tasks ?? []) walk(child, task.type === 'suite' ? [...names, task.name] : names);
  };
  // A file is a suite too: names start below it.
  for (const file of data.files) for (const child of file.tasks ?? []) walk(child, []);
  return tests;
}

/** The content of an attachment by path as the HTML page would load it, from `html/data/`. */
export function htmlAttachmentText(dir: string, annotation: HtmlAnnotation): Promise<string> {
  const path = annotation.attachment?.path;
  if (path === undefined) throw new Error(`annotation ${annotation.type} "${annotation.message}" attaches no path`);
  return readFile(join(dir, 'html/data', basename(path)), 'utf8');
}
