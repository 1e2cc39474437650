// Browser test of Settings → Extensions: the example extension checked from its folder, its
// permissions read before install, installed, listed in the registry with its source, switched
// off and on, and uninstalled; a broken extension lists every problem and cannot be installed.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtemp } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS, STEP_TIMEOUT, useWorkbenchSession } from './support/workbench-session.ts';

const EXAMPLE = fileURLToPath(new URL('../extensions/example', import.meta.url));
const session = useWorkbenchSession();

async function openExtensions() {
  const { page } = session;
  await page.getByRole('button', { name: 'Settings' }).last().click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('button', { name: 'Extensions' }).click();
  return dialog;
}

describe('extensions in a browser', () => {
  it('checks the example, shows its permissions, installs it, lists who provides what, and uninstalls it', async () => {
    const { page, stack } = session;
    const dialog = await openExtensions();
    await dialog
      .getByText('No extension installed: the workbench is the plain agent (T0).')
      .waitFor({ timeout: STEP_TIMEOUT });
    await dialog.getByLabel('Folder or archive on this machine').fill(EXAMPLE);
    await dialog.getByRole('button', { name: 'Check it' }).click();
    const preview = dialog.locator('.extension-preview');
    await preview.getByText('What it may do').waitFor({ timeout: STEP_TIMEOUT });
    expect(await preview.locator('.extension-permissions').textContent()).toContain('127.0.0.1, localhost');
    await page.screenshot({ path: join(SCREENSHOTS, 'extensions-permissions.png') });
    await preview.getByRole('button', { name: 'Accept these permissions and install' }).click();
    const card = dialog.locator('.extension-card', { hasText: 'Example: city weather' });
    await card.waitFor({ timeout: STEP_TIMEOUT });
    expect(await card.getAttribute('data-state')).toBe('enabled');
    const source = dialog.locator('.extension-registry details', { hasText: 'Extension example' });
    await source.locator('summary').click();
    await source.locator('code', { hasText: 'city_weather' }).waitFor({ timeout: STEP_TIMEOUT });
    await page.screenshot({ path: join(SCREENSHOTS, 'extensions-registry.png') });
    // The switch follows the server's answer (a controlled checkbox): click, then wait for the state.
    await source.getByLabel('Everything from Extension example').click();
    await card.getByText('disabled').waitFor({ timeout: STEP_TIMEOUT });
    expect((await stack.client.listTools()).map((tool) => tool.name)).not.toContain('city_weather');
    await card.getByRole('button', { name: 'Enable' }).click();
    await card.getByText('enabled', { exact: true }).waitFor({ timeout: STEP_TIMEOUT });
    await card.getByRole('button', { name: 'Uninstall' }).click();
    await page
      .getByRole('alertdialog', { name: 'Uninstall' })
      .getByRole('button', { name: 'Uninstall' })
      .click();
    await dialog
      .getByText('No extension installed: the workbench is the plain agent (T0).')
      .waitFor({ timeout: STEP_TIMEOUT });
    expect(await stack.client.listExtensions()).toEqual([]);
  }, 90_000);

  it('a broken extension lists every problem and offers no install', async () => {
    const broken = join(await mkdtemp(join(tmpdir(), 'youyou-broken-')), 'broken');
    await cp(EXAMPLE, broken, { recursive: true });
    const manifest = JSON.parse(await readFile(join(broken, 'extension.json'), 'utf8'));
    manifest.provides.tools.push('tools/missing.json');
    manifest.apiVersion = '9.0.0';
    await writeFile(join(broken, 'extension.json'), JSON.stringify(manifest));
    const dialog = await openExtensions();
    await dialog.getByLabel('Folder or archive on this machine').fill(broken);
    await dialog.getByRole('button', { name: 'Check it' }).click();
    const preview = dialog.locator('.extension-preview');
    await preview.getByText('2 problem(s); nothing of it is loaded:').waitFor({ timeout: STEP_TIMEOUT });
    expect(await preview.locator('.extension-problems').textContent()).toContain(
      'tools/missing.json the file is missing',
    );
    expect(
      await preview.getByRole('button', { name: 'Accept these permissions and install' }).isDisabled(),
    ).toBe(true);
    await session.page.screenshot({ path: join(SCREENSHOTS, 'extensions-problems.png') });
  }, 60_000);
});
