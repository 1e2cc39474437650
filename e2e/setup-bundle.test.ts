// Browser test of the setup bundle (spec §4.16, issue 27): Settings → Move your setup exports the
// whole setup as one file without a secret, and importing a file shows what it will create,
// overwrite or skip before anything is written.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SetupBundle } from '@youyou/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

const SECRET = 'rerank-key-that-stays-home-0001';

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${stack.server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.server.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)} ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

beforeAll(async () => {
  stack = await startStack();
  browser = await openBrowser();
  page = browser.page;
  await page.goto(stack.server.loginUrl);
  await page.goto(`${stack.server.url}/#/`);
  await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
  await api('PUT', '/api/settings/values', {
    layer: 'user',
    values: { 'run.temperature': 0.4, 'models.rerank_api_key': SECRET },
  });
  await api('POST', '/api/macros', {
    name: 'standup',
    description: 'Daily note',
    template: 'Standup: {{input}}',
  });
  await api('POST', '/api/projects', { name: 'Harbour' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('the setup bundle in the browser', () => {
  it('Settings → Move your setup exports the setup without secrets, and an import shows its preview before it writes', async () => {
    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Move your setup' }).click();

    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export my setup' }).click();
    const downloaded = await downloading;
    expect(downloaded.suggestedFilename()).toMatch(/^youyou-setup-\d{4}-\d{2}-\d{2}\.json$/);
    const path = join(stack.root, downloaded.suggestedFilename());
    await downloaded.saveAs(path);
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain(SECRET);
    const bundle = JSON.parse(text) as SetupBundle;
    expect(bundle.settings['run.temperature']).toBe(0.4);
    expect(bundle.macros.map((macro) => macro.name)).toEqual(['standup']);
    expect(bundle.projects.map((project) => project.name)).toEqual(['Harbour']);

    // The macro is gone and the temperature changed here since: the import would bring both back.
    const macros = (await api('GET', '/api/macros')) as { macros: { id: string }[] };
    await api('DELETE', `/api/macros/${macros.macros[0]?.id ?? ''}`);
    await api('PUT', '/api/settings/values', { layer: 'user', values: { 'run.temperature': 0.9 } });

    await dialog.getByLabel('Setup file (.json)').setInputFiles(path);
    const preview = dialog.getByTestId('setup-bundle-preview');
    await preview.waitFor({ timeout: STEP_TIMEOUT });
    const plan = preview.getByTestId('setup-bundle-plan');
    expect(await plan.locator('tr[data-section="macros"]').getAttribute('data-action')).toBe('create');
    expect(
      await plan
        .locator('tr[data-section="settings"]', { hasText: 'run.temperature' })
        .getAttribute('data-action'),
    ).toBe('overwrite');
    expect(await plan.locator('tr[data-section="projects"]').getAttribute('data-action')).toBe('skip');
    await page.screenshot({ path: join(SCREENSHOTS, 'setup-bundle-preview.png') });
    // Nothing is written before the import is confirmed.
    expect(((await api('GET', '/api/macros')) as { macros: unknown[] }).macros).toEqual([]);

    await preview.getByRole('button', { name: 'Import' }).click();
    await dialog.getByTestId('setup-bundle-imported').waitFor({ timeout: STEP_TIMEOUT });
    expect(await dialog.getByTestId('setup-bundle-imported').textContent()).toMatch(
      /^Imported: [1-9]\d* created, [1-9]\d* overwritten, \d+ left as they were\.$/,
    );
    expect(
      ((await api('GET', '/api/macros')) as { macros: { name: string }[] }).macros.map((macro) => macro.name),
    ).toEqual(['standup']);
    await dialog.getByRole('button', { name: 'Close settings' }).click();
  }, 60_000);
});
