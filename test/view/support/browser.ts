// Headless Chromium for the viewer's tests: Debian's `chromium` driven by playwright-core, with a fresh
// profile, and every request that is not file:// or data: aborted, so a page can never reach the network.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

const CANDIDATES = [process.env.GZ_BENCH_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The Chromium executable, or undefined when none is installed. */
export const CHROMIUM = CANDIDATES.find(
  (path): path is string => path !== undefined && path !== '' && existsSync(path),
);

/** Why the browser tests are skipped here, or undefined when they can run. */
export const noBrowser =
  CHROMIUM === undefined ? 'no Chromium (apt-get install chromium, or set GZ_BENCH_CHROMIUM)' : undefined;

/** A browser with its own profile; `blocked` lists every request that was aborted. */
export interface Browser {
  context: BrowserContext;
  blocked: string[];
  open(url: string): Promise<Page & { dialogs: string[]; errors: string[] }>;
  close(): Promise<void>;
}

/** Starts Chromium headless, offline. */
export async function startBrowser(): Promise<Browser> {
  if (CHROMIUM === undefined) throw new Error(noBrowser);
  const profile = await mkdtemp(join(tmpdir(), 'gz-view-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const blocked: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  return {
    context,
    blocked,
    async open(url) {
      const page = (await context.newPage()) as Page & { dialogs: string[]; errors: string[] };
      page.dialogs = [];
      page.errors = [];
      page.on('dialog', (dialog) => {
        page.dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      page.on('pageerror', (error) => page.errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') page.errors.push(message.text());
      });
      await page.goto(url);
      return page;
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
