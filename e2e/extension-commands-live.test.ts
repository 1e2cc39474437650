// Browser test of an extension's `/` commands without a reload (issue 26): the composer's `/` menu
// is open while the example extension is installed, disabled, enabled and uninstalled (from another
// client, as another tab or the CLI would); the server's `extensions.changed` on the workbench
// stream refreshes the menu each time.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS, STEP_TIMEOUT, useWorkbenchSession } from './support/workbench-session.ts';

const EXAMPLE = fileURLToPath(new URL('../extensions/example', import.meta.url));
const session = useWorkbenchSession();

describe('an extension’s commands in the / menu', () => {
  it('appear once it is installed or enabled and go once it is disabled or uninstalled, without a reload', async () => {
    const { page, stack } = session;
    let loads = 0;
    page.on('load', () => loads++);
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    const composer = page.getByTestId('composer-input');
    await composer.fill('/');
    const palette = page.getByRole('listbox', { name: /command/i });
    await palette.waitFor({ timeout: STEP_TIMEOUT });
    const cityReport = page.getByRole('option', { name: /\/city-report/ });
    expect(await cityReport.count()).toBe(0);

    const preview = await stack.client.previewExtension(EXAMPLE);
    if (preview.permissions === null) throw new Error('the example extension did not check out');
    await stack.client.installExtension({
      staging_id: preview.staging_id,
      accepted_permissions: preview.permissions,
    });
    await cityReport.waitFor({ timeout: STEP_TIMEOUT });
    await page.screenshot({ path: join(SCREENSHOTS, 'extension-commands-live.png') });

    await stack.client.setExtensionEnabled('example', false);
    await cityReport.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    await stack.client.setExtensionEnabled('example', true);
    await cityReport.waitFor({ timeout: STEP_TIMEOUT });
    await stack.client.uninstallExtension('example');
    await cityReport.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    expect(loads).toBe(0);
  }, 90_000);
});
