// Browser tests of issue 26's first-run dead ends that were fixed and tested elsewhere (server and
// unit tests), walked here as a person meets them, each with its screenshot: a project folder
// outside the workspace roots names --workspace-root; a stopped answer shows "— tokens", not
// 0/0; the example extension's settings are where its panel and README say; with no lightweight
// model set, the chat model titles a conversation once the fallback is on.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS, STEP_TIMEOUT, useWorkbenchSession } from './support/workbench-session.ts';

const EXAMPLE = fileURLToPath(new URL('../extensions/example', import.meta.url));
const session = useWorkbenchSession();

describe('first-run dead ends', () => {
  it('a project folder outside the workspace roots is refused with the --workspace-root to start with', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'New project' }).click();
    await page.getByLabel('Project name').fill('Elsewhere');
    await page.getByLabel('Workspace directory (optional)').fill('/usr/share');
    await page.getByRole('button', { name: 'Create' }).click();
    const alert = page.locator('.new-project [role="alert"]');
    await alert.waitFor({ timeout: STEP_TIMEOUT });
    expect(await alert.textContent()).toContain('--workspace-root /usr');
    await page.screenshot({ path: join(SCREENSHOTS, 'project-outside-workspace-roots.png') });
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect((await session.stack.client.listProjects()).map((project) => project.name)).not.toContain(
      'Elsewhere',
    );
  }, 60_000);

  it('an answer stopped before the model reported tokens shows “— tokens”, not 0 in / 0 out', async () => {
    const { page } = session;
    await session.send('stream slowly, then stop');
    const answer = session.lastAnswer();
    await expect.poll(() => answer.textContent(), { timeout: STEP_TIMEOUT }).toContain('w3');
    await page.getByTestId('stop-button').click();
    await session.answerEnds('cancelled');
    await expect.poll(() => answer.textContent(), { timeout: STEP_TIMEOUT }).toContain('— tokens');
    expect(await answer.textContent()).not.toMatch(/\b0 in\b/);
    await page.screenshot({ path: join(SCREENSHOTS, 'stopped-answer-tokens.png') });
  }, 60_000);

  it('the example extension’s settings are in Settings → Preferences → Example: city weather, as its panel says', async () => {
    const { page, stack } = session;
    const preview = await stack.client.previewExtension(EXAMPLE);
    if (preview.permissions === null) throw new Error('the example extension did not check out');
    await stack.client.installExtension({
      staging_id: preview.staging_id,
      accepted_permissions: preview.permissions,
    });
    try {
      await page.getByRole('button', { name: 'Settings' }).last().click();
      const dialog = page.getByRole('dialog', { name: 'Settings' });
      await dialog.getByRole('button', { name: 'Preferences' }).click();
      const heading = dialog.getByRole('heading', { name: 'Example: city weather' });
      await heading.waitFor({ timeout: STEP_TIMEOUT });
      await heading.scrollIntoViewIfNeeded();
      await dialog.getByText('Weather service URL').waitFor({ timeout: STEP_TIMEOUT });
      await page.screenshot({ path: join(SCREENSHOTS, 'example-extension-settings.png') });
      await dialog.getByRole('button', { name: 'Close settings' }).click();
    } finally {
      await stack.client.uninstallExtension('example');
    }
  }, 60_000);

  it('with no lightweight model, the fallback switched on in Preferences lets the chat model title a conversation', async () => {
    const { page, stack } = session;
    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Preferences' }).click();
    const row = dialog.locator('[data-setting-key="models.lightweight_fallback"]');
    const toggle = row.getByLabel('Use the chat model for lightweight tasks');
    await toggle.waitFor({ timeout: STEP_TIMEOUT });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    await expect.poll(() => toggle.isChecked(), { timeout: STEP_TIMEOUT }).toBe(true);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'lightweight-fallback-setting.png') });
    await dialog.getByRole('button', { name: 'Close settings' }).click();
    try {
      await session.send('Which vegetables should I plant next to tomatoes, and when?');
      await session.answerEnds();
      await expect
        .poll(() => page.locator('.conversation-heading').textContent(), { timeout: STEP_TIMEOUT })
        .toBe('Garden planning');
      await page.screenshot({ path: join(SCREENSHOTS, 'lightweight-fallback-title.png') });
    } finally {
      await stack.server.services.settings.set('user', '', 'models.lightweight_fallback', false);
    }
  }, 60_000);
});
