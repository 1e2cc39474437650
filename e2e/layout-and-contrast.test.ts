// Browser tests of the workbench at the window widths people use (issue 26, decision 0037): the
// right column's tabs at 1280 and 1920 px, the phone (390 px) and tablet (768 px) layouts, every
// text's contrast in both themes (axe-core), and the app's button styles in dialogs.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { fakeAskUserReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;

/** axe-core's browser bundle: YOUYOU_AXE_CORE names a copy outside node_modules (a local run). */
function axeScript(): string {
  return process.env['YOUYOU_AXE_CORE'] ?? createRequire(import.meta.url).resolve('axe-core/axe.min.js');
}

beforeAll(async () => {
  stack = await startStack();
  // An extension panel, so the strip has a tab that lives in its "More" menu.
  stack.server.services.uiSurfaces.register({
    source: 'extension:example',
    panels: () => [
      {
        id: 'example.notes',
        source: 'extension:example',
        title: { en: 'Notes', 'zh-CN': '笔记' },
        schema: { version: 2, root: { component: 'Hologram' } },
      },
    ],
    tool: () => undefined,
  });
  // The axe script is injected inline, which the workbench's CSP would refuse.
  browser = await openBrowser({ bypassCSP: true });
  page = browser.page;
  await page.goto(stack.server.loginUrl);
  await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
  await page.getByTestId('composer-input').fill('Hello');
  await page.getByTestId('composer-input').press('Enter');
  await page.locator('[data-role="assistant"][data-status="complete"]').waitFor({ timeout: STEP_TIMEOUT });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** The theme as a person's system picks it: the workbench follows `prefers-color-scheme`. */
async function setTheme(theme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe(theme);
  // Colours fade between themes: measured mid-fade, a text would pair one theme with the other
  // (only transitions: a waiting mark's spinner never finishes).
  await page.evaluate(async () => {
    const fades = document.getAnimations().filter((animation) => animation instanceof CSSTransition);
    await Promise.all(fades.map((animation) => animation.finished));
  });
}

async function showWorkbench(): Promise<void> {
  const show = page.getByRole('button', { name: 'Show the workbench' });
  if (await show.isVisible()) await show.click();
  await page.getByRole('tablist', { name: 'Workbench tabs' }).waitFor({ timeout: STEP_TIMEOUT });
}

/** The tab labels whose text does not fit their box. */
async function truncatedLabels(): Promise<string[]> {
  return page
    .locator('.workbench-tabs .workbench-tab-label')
    .evaluateAll((labels) =>
      labels.filter((label) => label.scrollWidth > label.clientWidth).map((label) => label.textContent ?? ''),
    );
}

describe('the right column tabs', () => {
  for (const width of [1280, 1920]) {
    it(`${String(width)} px: no tab label is cut, every tab has a tooltip, the active one its label`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await showWorkbench();
      await expect.poll(truncatedLabels).toEqual([]);
      const tabs = page.locator('.workbench-tabs [role="tab"]');
      const titles = await tabs.evaluateAll((items) => items.map((item) => item.getAttribute('title')));
      expect(titles.every((title) => title !== null && title !== '')).toBe(true);
      expect(await page.locator('.workbench-tab.active .workbench-tab-label').count()).toBe(1);
      await page.screenshot({ path: join(SCREENSHOTS, `workbench-tabs-${String(width)}.png`) });
    }, 60_000);
  }

  it('the "More" menu holds the extension tab and opens it by keyboard', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await showWorkbench();
    const more = page.getByRole('button', { name: 'More tabs' });
    await more.focus();
    await page.keyboard.press('Enter');
    // The menu takes the focus; arrow keys walk to the extension tab.
    await page.getByRole('menu', { name: 'More tabs' }).waitFor({ timeout: STEP_TIMEOUT });
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem');
    for (let step = 0; step < 10 && (await focused()) !== 'Notes'; step += 1)
      await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Notes');
    await page.screenshot({ path: join(SCREENSHOTS, 'workbench-more-menu.png') });
    await page.keyboard.press('Enter');
    const tab = page.getByRole('tab', { name: 'Notes' });
    await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
    await expect.poll(truncatedLabels).toEqual([]);
    await page.getByRole('tab', { name: 'Plan' }).click();
  }, 60_000);
});

/** What axe-core's colour-contrast rule (WCAG AA: 4.5:1, 3:1 for large text) finds on the page. */
async function contrastFailures(): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeScript() });
  return page.evaluate(async () => {
    interface AxeResult {
      violations: { nodes: { target: string[]; failureSummary?: string }[] }[];
    }
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResult> } }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'rule', values: ['color-contrast'] } });
    return result.violations.flatMap((violation) =>
      violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
    );
  });
}

describe('contrast', () => {
  beforeAll(async () => {
    // A card waiting for an answer, with the composer's hint that a message answers it.
    stack.fake.push(
      fakeAskUserReply({
        question: 'Which output format?',
        kind: 'choice',
        choices: [
          {
            id: 'md',
            label: 'Markdown document',
            description: 'A light document',
            impact: 'Written to the artifacts',
            recommended: true,
          },
          {
            id: 'docx',
            label: 'Word document',
            description: 'Easy to hand out offline',
            impact: 'Creates a .docx file',
          },
        ],
        allowFreeInput: true,
        freeInputHint: 'Or type another format',
      }),
    );
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByTestId('composer-input').fill('Write the report');
    await page.getByTestId('composer-input').press('Enter');
    await page
      .locator('[data-testid="hitl-card"][data-card-status="pending"]')
      .waitFor({ timeout: STEP_TIMEOUT });
    await page.getByTestId('composer-routed').waitFor({ timeout: STEP_TIMEOUT });
  }, 60_000);

  for (const theme of ['light', 'dark'] as const) {
    it(`${theme}: every text meets WCAG AA (4.5:1), with a waiting card and in the settings`, async () => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await setTheme(theme);
      await showWorkbench();
      const failures = await contrastFailures();
      await page.screenshot({ path: join(SCREENSHOTS, `contrast-${theme}.png`) });
      await page.getByRole('button', { name: 'Settings' }).last().click();
      const dialog = page.getByRole('dialog', { name: 'Settings' });
      await dialog.waitFor({ timeout: STEP_TIMEOUT });
      const sections = dialog.locator('.settings-nav button');
      for (let index = 0; index < (await sections.count()); index += 1) {
        await sections.nth(index).click();
        failures.push(...(await contrastFailures()));
      }
      await page.keyboard.press('Escape');
      expect(failures).toEqual([]);
    }, 90_000);
  }
});

describe('phone and tablet widths', () => {
  for (const width of [390, 768]) {
    it(`${String(width)} px: nothing overflows, the send button is inside the window, drawers open and close by keyboard`, async () => {
      await setTheme('light');
      await page.setViewportSize({ width, height: 844 });
      await page.keyboard.press('Escape');
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      await expect.poll(overflow).toBeLessThanOrEqual(0);
      const send = await page.getByTestId('send-button').boundingBox();
      expect(send).not.toBeNull();
      if (send !== null) {
        expect(send.x).toBeGreaterThanOrEqual(0);
        expect(send.x + send.width).toBeLessThanOrEqual(width);
      }
      // The composer's toolbar fits: nothing runs under the send button.
      const toolbar = page.locator('.composer-toolbar');
      // Polled like the page's overflow: the columns may still be settling after the resize.
      await expect
        .poll(() => toolbar.evaluate((element) => element.scrollWidth <= element.clientWidth))
        .toBe(true);
      await page.screenshot({ path: join(SCREENSHOTS, `layout-${String(width)}.png`) });

      await page.getByRole('button', { name: 'Expand sidebar' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('left-column').getAttribute('data-collapsed')).toBe('false');
      await expect.poll(overflow).toBeLessThanOrEqual(0);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByTestId('left-column').getAttribute('data-collapsed')).toBe('true');

      await page.getByRole('button', { name: 'Show the workbench' }).focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('right-column').waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      await expect.poll(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(SCREENSHOTS, `layout-${String(width)}-workbench.png`) });
      await page.getByRole('tab', { name: 'Plan' }).focus();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByTestId('right-column').isHidden()).toBe(true);
    }, 60_000);
  }
});

describe('dialogs', () => {
  it('every button in the settings dialog wears the app button styles', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.waitFor({ timeout: STEP_TIMEOUT });
    const sections = dialog.locator('.settings-nav button');
    expect(await sections.count()).toBeGreaterThan(1);
    const unstyled: string[] = [];
    for (let index = 0; index < (await sections.count()); index += 1) {
      await sections.nth(index).click();
      unstyled.push(
        ...(await dialog
          .locator('button:not([class])')
          .evaluateAll((buttons) => buttons.map((button) => button.outerHTML.slice(0, 120)))),
      );
    }
    expect(unstyled).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-dialog-buttons.png') });
    await page.keyboard.press('Escape');
  }, 90_000);
});
