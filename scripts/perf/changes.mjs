// Row 3.3: what computing a trial's changes costs on the fixture of rows 3.x, against the
// copy of that fixture (core's copyFixture, as row 3.1 times it). The work timed is all a case does
// for its changes: the snapshot after setup, and after the agent the comparison, the diff rendered
// and written. The agent's part between them (editing, adding and deleting some files) is not timed.
import { appendFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  changesFence,
  compareWorkspace,
  copyFixture,
  renderChanges,
  resolveChanges,
  takeSnapshot,
} from '@gz-bench/core';
import { measuredRow, ms, times } from './row.mjs';
import { median } from './stats.mjs';

const TARGET = 0.2;
/** The agent's work: text files it appends to, files it deletes, files it adds. */
const EDITS = { modified: 20, deleted: 10, added: 10 };

/** Row 3.3, given row 3.1's fixture and its median copy time. */
export async function changesRow(context, { dir, fixture, tree, copyMs }) {
  const { options } = context;
  const files = (await readdir(fixture, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(fixture.length + 1))
    .sort();
  const texts = files.filter((path) => !path.endsWith('.bin'));
  let trials = 0;

  /** One trial: copies the fixture (untimed), then times what its changes cost; resolves with ms. */
  const trial = async () => {
    trials += 1;
    const area = join(dir, `changes-${trials}`);
    const workspace = join(area, 'workspace');
    await mkdir(workspace, { recursive: true });
    try {
      const fenceBefore = changesFence(join(area, 'fence'));
      await copyFixture(fixture, workspace);
      const plan = {
        settings: resolveChanges(undefined),
        keptFile: join(area, 'changes-before'),
        fixture: { dir: fixture, fenceBefore, fenceAfter: changesFence(join(area, 'fence')) },
      };
      const before = performance.now();
      const snapshot = await takeSnapshot(workspace, plan);
      const snapshotMs = performance.now() - before;

      await agentEdits(workspace, texts, files);

      const after = performance.now();
      const { changes, diff } = renderChanges(snapshot, await compareWorkspace(snapshot));
      await writeFile(join(area, 'changes.diff'), diff);
      const compareMs = performance.now() - after;
      const expected = { added: EDITS.added, modified: EDITS.modified, deleted: EDITS.deleted };
      const found = { added: changes.added, modified: changes.modified, deleted: changes.deleted };
      if (JSON.stringify(found) !== JSON.stringify(expected)) {
        throw new Error(`the changes counted ${JSON.stringify(found)}, not ${JSON.stringify(expected)}`);
      }
      return snapshotMs + compareMs;
    } finally {
      await rm(area, { recursive: true, force: true });
    }
  };

  const walls = [];
  for (let run = 0; run < options.cheapRuns; run += 1) {
    context.log(`3: the changes of a trial on the fixture, run ${run + 1} of ${options.cheapRuns}`);
    walls.push(await trial());
  }
  const wallMs = median(walls);
  const edits = `${EDITS.modified} files edited, ${EDITS.deleted} deleted, ${EDITS.added} added`;
  return measuredRow({
    id: '3.3',
    what: `What the agent changed on the fixture of ${tree} (${edits}), per trial: snapshot after setup, comparison, diff written`,
    baseline: `\`copyFixture\` ${ms(copyMs)}`,
    figure: ms(wallMs),
    value: times(wallMs / copyMs),
    target: `≤ ${TARGET}× the copy`,
    met: wallMs / copyMs <= TARGET,
  });
}

/** What the measured agent does: appends to text files, deletes others, adds new ones. */
async function agentEdits(workspace, texts, files) {
  const step = Math.max(1, Math.floor(texts.length / EDITS.modified));
  const modified = texts.filter((_, index) => index % step === 0).slice(0, EDITS.modified);
  for (const path of modified) await appendFile(join(workspace, path), 'a line the agent added\n');
  const deletable = files.filter((path) => !modified.includes(path)).reverse();
  for (const path of deletable.slice(0, EDITS.deleted)) await rm(join(workspace, path));
  for (let index = 0; index < EDITS.added; index += 1) {
    await writeFile(join(workspace, `added-${index}.txt`), `new file ${index}\n`);
  }
}
