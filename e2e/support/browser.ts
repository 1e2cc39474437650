import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { chromiumExecutable } from './chromium-executable.ts';

/**
 * Chromium headless (YOUYOU_CHROMIUM, Debian's, or the npm registry's: see chromiumExecutable),
 * a fresh profile, no network beyond loopback.
 */
export async function openBrowser(
  options: { locale?: string; colorScheme?: 'light' | 'dark'; bypassCSP?: boolean } = {},
): Promise<{
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}> {
  const profile = await mkdtemp(join(tmpdir(), 'youyou-chromium-'));
  const executable = await chromiumExecutable();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: executable.path,
    env: { ...process.env, ...executable.env },
    headless: true,
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
    viewport: { width: 1440, height: 900 },
    locale: options.locale ?? 'en-US',
    colorScheme: options.colorScheme ?? 'light',
    bypassCSP: options.bypassCSP ?? false,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens a right-column tab by its name: shows the column when it is hidden (narrow widths) and
 * picks the tab from the strip's "More" menu when it waits there (extension panels, decision 0037).
 */
export async function openWorkbenchTab(page: Page, name: string): Promise<void> {
  const show = page.getByRole('button', { name: 'Show the workbench' });
  if (await show.isVisible()) await show.click();
  const tab = page.getByRole('tab', { name });
  if (await tab.isVisible()) await tab.click();
  else {
    await page.getByRole('button', { name: 'More tabs' }).click();
    await page.getByRole('menuitem', { name }).click();
  }
}
