// Browser test of the settings centre drawn from the server's schema (spec §4.9, issue 27): a setting
// registered on the server alone — on every page, inside a page's section, in a section nobody
// declared, on a page the server adds — appears with its page, is typed in, saved and shown again.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../apps/server/test/support/databases.ts';
import { SCREENSHOTS, STEP_TIMEOUT, useWorkbenchSession } from './support/workbench-session.ts';

const keyOf = (section: string) => `centre.${section.replaceAll('-', '_')}`;

describe.each(DATABASE_KINDS)('the settings centre from the schema, in a browser (%s)', (kind) => {
  const session = useWorkbenchSession({ database: kind });
  it('a setting added on the server alone appears on every page of the settings centre, and is saved from there', async () => {
    const { page } = session;
    const { settingsService } = session.stack.server.services;
    const { registry } = settingsService;
    const schema = await session.stack.client.getSettingsSchema();
    const pages = schema.sections.filter((section) => section.page === undefined);
    expect(pages.length).toBeGreaterThan(10);
    // A page of its own the server adds; a section inside Preferences; a section nobody declared.
    registry.registerSection({
      id: 'centre-page',
      label: { en: 'Centre page', 'zh-CN': '测试页' },
      order: 500,
    });
    const placements = [
      ...pages.map((section) => ({ section: section.id, page: section.label.en })),
      { section: 'run', page: 'Preferences' },
      { section: 'centre-new', page: 'Preferences' },
      { section: 'centre-page', page: 'Centre page' },
    ];
    for (const { section } of placements) {
      registry.register({
        key: keyOf(section),
        section,
        source: 'builtin',
        secret: false,
        effect: 'hot',
        layers: ['user'],
        schema: { type: 'string', default: 'unset', maxLength: 40 },
        label: { en: `Test setting of ${section}`, 'zh-CN': `${section} 的测试设置` },
        help: { en: 'Registered by the test on the server only.', 'zh-CN': '仅由测试在服务器上注册。' },
      });
    }

    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    const nav = dialog.locator('.settings-nav');
    // The page the server added is in the navigation, after the others.
    await nav.getByRole('button', { name: 'Centre page', exact: true }).waitFor({ timeout: STEP_TIMEOUT });
    expect(await nav.locator('button').last().textContent()).toBe('Centre page');
    for (const { section, page: label } of placements) {
      await nav.getByRole('button', { name: label, exact: true }).click();
      await dialog
        .getByRole('heading', { name: label, exact: true, level: 2 })
        .waitFor({ timeout: STEP_TIMEOUT });
      const row = dialog.locator(`[data-setting-key="${keyOf(section)}"]`);
      await row.waitFor({ timeout: STEP_TIMEOUT });
      const input = row.getByLabel(`Test setting of ${section}`);
      expect(await input.inputValue()).toBe('unset');
      await input.fill(`saved on ${section}`);
      await input.press('Enter');
      await expect.poll(() => settingsService.value<string>(keyOf(section))).toBe(`saved on ${section}`);
      await expect.poll(() => row.getByTestId('setting-source').textContent()).toBe('From: User');
      if (kind === 'sqlite' && section !== 'run' && section !== 'centre-new') {
        await row.scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SCREENSHOTS, `settings-page-${section}.png`) });
      }
    }
    // Saved means stored: the values come back from the server in a fresh page.
    await page.getByRole('button', { name: 'Close settings' }).click();
    await page.reload();
    await page.getByRole('button', { name: 'Settings' }).last().click();
    await nav.getByRole('button', { name: 'Tools', exact: true }).click();
    await expect
      .poll(() => dialog.locator(`[data-setting-key="${keyOf('tools')}"] input`).inputValue(), {
        timeout: STEP_TIMEOUT,
      })
      .toBe('saved on tools');
    await page.getByRole('button', { name: 'Close settings' }).click();
  }, 120_000);

  it('a setting registered while the settings centre is open appears without reopening it', async () => {
    const { page } = session;
    const { registry } = session.stack.server.services.settingsService;
    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'MCP servers', exact: true }).click();
    await dialog.getByRole('heading', { name: 'MCP servers', level: 2 }).waitFor({ timeout: STEP_TIMEOUT });
    registry.register({
      key: 'centre.live',
      section: 'mcp',
      source: 'extension',
      source_id: 'centre-test',
      secret: false,
      effect: 'new-run',
      layers: ['user', 'project'],
      schema: { type: 'boolean', default: false },
      label: { en: 'Registered while open', 'zh-CN': '打开时注册' },
      help: { en: 'Arrives by the workbench event stream.', 'zh-CN': '经工作台事件流到达。' },
    });
    const row = dialog.locator('[data-setting-key="centre.live"]');
    await row.waitFor({ timeout: STEP_TIMEOUT });
    expect(await row.textContent()).toContain('extension: centre-test');
    await row.getByLabel('Registered while open').click();
    await expect
      .poll(() => session.stack.server.services.settingsService.value<boolean>('centre.live'))
      .toBe(true);
    await page.getByRole('button', { name: 'Close settings' }).click();
  }, 60_000);
});
