// Browser test of MCP servers in settings: added from the UI, connected with its status and tools,
// its tool used in a conversation, and its prompt used as a / command.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS, STEP_TIMEOUT, useWorkbenchSession } from './support/workbench-session.ts';

const require = createRequire(import.meta.url);
const EVERYTHING = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

const session = useWorkbenchSession();

describe('MCP servers in a browser', () => {
  it('adds the everything server, shows it connected with its tools, and its tool runs in a conversation', async () => {
    const { page, stack } = session;
    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'MCP servers' }).click();
    await dialog.getByText('No MCP server yet.').waitFor({ timeout: STEP_TIMEOUT });
    await dialog.getByRole('button', { name: 'Add MCP server' }).click();
    const form = dialog.locator('.mcp-form');
    await form.getByLabel('Name').fill('everything');
    await form.getByLabel('Command', { exact: true }).fill(process.execPath);
    await form.getByLabel('Arguments (one per line)').fill(`${EVERYTHING}\nstdio`);
    await form.getByRole('button', { name: 'Save and connect' }).click();
    const card = dialog.locator('.mcp-card', { hasText: 'everything' });
    await card.getByText(/^Connected: \d+ tools\./).waitFor({ timeout: STEP_TIMEOUT });
    expect(await card.getAttribute('data-state')).toBe('connected');
    await card.getByText(/^Tools \(\d+\)$/).click();
    expect(await card.locator('.mcp-tools code', { hasText: 'everything__echo' }).count()).toBe(1);
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-mcp.png') });
    await dialog.getByRole('button', { name: 'Close settings' }).click();

    stack.fake.push(
      fakeToolCallReply('everything__echo', { message: 'from the browser' }),
      fakeTextReply('Echoed.'),
    );
    await session.send('Echo through MCP');
    await session.answerEnds();
    const answer = session.lastAnswer();
    expect(await answer.textContent()).toContain('Echoed.');
    const servers = await stack.client.listMcpServers();
    expect(servers[0]?.status.state).toBe('connected');

    // An image the tool returns is stored and shown in the answer.
    stack.fake.push(fakeToolCallReply('everything__get-tiny-image', {}), fakeTextReply('Here it is.'));
    await session.send('Show the tiny image');
    await session.answerEnds();
    const image = session.lastAnswer().locator('.attachment-image img');
    await image.waitFor({ timeout: STEP_TIMEOUT });
    expect(await image.getAttribute('src')).toMatch(/\/api\/uploads\/[^/]+\/content/);
    await expect
      .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth), {
        timeout: STEP_TIMEOUT,
      })
      .toBeGreaterThan(0);

    // The server's prompts are / commands: one filled through its form lands in the composer.
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    const composer = page.getByTestId('composer-input');
    await composer.fill('/everything__args');
    await page.getByRole('option', { name: /\/everything__args-prompt/ }).waitFor({ timeout: STEP_TIMEOUT });
    await composer.press('Enter');
    const promptForm = page.getByRole('form', { name: 'Parameters of /everything__args-prompt' });
    await promptForm.getByLabel(/City/i).fill('Berlin');
    await promptForm.getByRole('button', { name: 'Insert' }).click();
    await expect
      .poll(() => composer.inputValue(), { timeout: STEP_TIMEOUT })
      .toBe("What's weather in Berlin?");
  }, 90_000);

  it('a server that cannot start shows failed and why', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'MCP servers' }).click();
    await dialog.getByRole('button', { name: 'Add MCP server' }).click();
    const form = dialog.locator('.mcp-form');
    await form.getByLabel('Name').fill('broken');
    await form.getByLabel('Command', { exact: true }).fill('/nonexistent/mcp-server');
    await form.getByRole('button', { name: 'Save and connect' }).click();
    const card = dialog.locator('.mcp-card', { hasText: 'broken' });
    await card.getByText(/^Failed: .*ENOENT/).waitFor({ timeout: STEP_TIMEOUT });
    expect(await card.getAttribute('data-state')).toBe('failed');
  }, 60_000);
});
