import type { CaseArea } from '../workspace/case-area.js';
import { copyFixture, type SkippedEntry } from '../workspace/copy-fixture.js';
import { createGitBaseline } from '../workspace/git-baseline.js';

/** What preparing a workspace did that the report should say. */
export interface PreparedWorkspace {
  /** Fixture entries that were not copied, and why. */
  skipped: SkippedEntry[];
  warnings: string[];
}

/** Fills a fresh workspace: the fixture repository's files, then a git baseline commit if asked. */
export async function prepareWorkspace(
  area: CaseArea,
  options: {
    repo: string | undefined;
    git: boolean;
    allowSecrets: boolean;
    /** The fixture's verifier directory (posix, relative), left out. */
    hidden?: readonly string[];
    env: Record<string, string>;
  },
): Promise<PreparedWorkspace> {
  const skipped: SkippedEntry[] = [];
  if (options.repo !== undefined) {
    const copy = await copyFixture(options.repo, area.workspace, {
      allowSecrets: options.allowSecrets,
      ...(options.hidden !== undefined && { hidden: options.hidden }),
    });
    skipped.push(...copy.skipped);
  }
  if (options.git) await createGitBaseline(area.workspace, options.env);
  const secrets = skipped.filter((entry) => entry.reason === 'secret').map((entry) => entry.path);
  const warnings =
    secrets.length > 0
      ? [`secret-looking fixture files were not copied (allowSecrets copies them): ${secrets.join(', ')}`]
      : [];
  return { skipped, warnings };
}
