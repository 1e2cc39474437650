// Browser test of Settings → Tools: every tool with its policy, changed from the page and stored
// on the server, and the audit of the calls the agent made.
import { join } from 'node:path';
import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS, STEP_TIMEOUT, useWorkbenchSession } from './support/workbench-session.ts';

const session = useWorkbenchSession();

describe('Settings → Tools in a browser', () => {
  it('lists the tools with their policy, changes a policy and a tool’s enablement, and shows the audit', async () => {
    const { page, stack } = session;
    stack.fake.push(fakeToolCallReply('current_time', {}), fakeTextReply('It is now.'));
    await session.send('What time is it?');
    await session.answerEnds();

    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Tools', exact: true }).click();
    const table = dialog.getByTestId('tools-table');
    await table.waitFor({ timeout: STEP_TIMEOUT });
    const readFile = table.locator('[data-tool="read_file"]');
    expect(await readFile.textContent()).toContain('built in');
    expect(await readFile.getByLabel('Policy of read_file').inputValue()).toBe('auto');
    expect(await readFile.textContent()).toContain('default: Auto');
    // The lookup tool of the e2e home comes from its component folder: known after the first run.
    expect(await table.locator('[data-tool="lookup"]').textContent()).toContain('global');

    await readFile.getByLabel('Policy of read_file').selectOption('confirm');
    await expect
      .poll(async () => (await stack.client.listTools()).find((tool) => tool.name === 'read_file')?.policy, {
        timeout: STEP_TIMEOUT,
      })
      .toBe('confirm');
    const listFiles = table.locator('[data-tool="list_files"]');
    await listFiles.getByLabel('Enable list_files').click();
    await expect
      .poll(
        async () => (await stack.client.listTools()).find((tool) => tool.name === 'list_files')?.enabled,
        { timeout: STEP_TIMEOUT },
      )
      .toBe(false);
    // A disabled tool has no policy to choose.
    expect(await listFiles.getByLabel('Policy of list_files').isDisabled()).toBe(true);

    const audit = dialog.getByTestId('audit-row').first();
    await audit.waitFor({ timeout: STEP_TIMEOUT });
    expect(await audit.textContent()).toContain('current_time');
    expect(await audit.textContent()).toContain('Succeeded');
    expect(await audit.textContent()).toContain('the policy');
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-tools.png') });
    await dialog.getByLabel('Show the calls of').selectOption('read_file');
    await dialog.getByText('No tool calls yet.').waitFor({ timeout: STEP_TIMEOUT });

    // Back to the defaults: the stored overrides are removed.
    await readFile.getByLabel('Policy of read_file').selectOption('auto');
    await listFiles.getByLabel('Enable list_files').click();
    await expect
      .poll(
        async () =>
          (await stack.client.listTools())
            .filter((tool) => tool.name === 'read_file' || tool.name === 'list_files')
            .map((tool) => `${tool.name}:${String(tool.enabled)}:${tool.policy}`),
        { timeout: STEP_TIMEOUT },
      )
      .toEqual(['list_files:true:auto', 'read_file:true:auto']);
    await dialog.getByRole('button', { name: 'Close settings' }).click();
  }, 60_000);
});
