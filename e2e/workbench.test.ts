// Browser tests of the whole workbench: Debian Chromium (playwright-core) against the real server
// (apps/server) with the built UI, a fake OpenAI-compatible model on loopback, temp directories.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeServer } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS, STEP_TIMEOUT, useWorkbenchSession } from './support/workbench-session.ts';

const session = useWorkbenchSession();
const send = (text: string): Promise<void> => session.send(text);
const lastAnswer = (target?: Page) => session.lastAnswer(target);

const SLOW_WORDS = Array.from({ length: 60 }, (_unused, index) => `w${String(index + 1)}`);

describe('the workbench in a browser', () => {
  it('sends a message and shows the answer streaming in', async () => {
    await send('please stream slowly');
    const answer = lastAnswer();
    await expect.poll(() => answer.textContent(), { timeout: STEP_TIMEOUT }).toContain('w5');
    // Partway: streaming, the stop button shows, the end has not arrived yet.
    expect(await answer.textContent()).not.toContain('w60');
    expect(await session.page.getByTestId('stop-button').isVisible()).toBe(true);
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');
    expect((await answer.locator('.markdown').textContent())?.trim()).toBe(SLOW_WORDS.join(' '));
    // Assistive technology hears that the answer ended (the list itself is not live).
    expect(await session.page.locator('.visually-hidden[role="status"]').textContent()).toBe(
      'The answer is complete.',
    );
    expect(await session.page.getByTestId('send-button').isVisible()).toBe(true);
  }, 60_000);

  it('continues a stream after a reload mid-run, without duplicates', async () => {
    await send('stream slowly, then reload');
    await expect.poll(() => lastAnswer().textContent(), { timeout: STEP_TIMEOUT }).toContain('w8');
    await session.page.reload();
    const answer = lastAnswer();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');
    const words = ((await answer.locator('.markdown').textContent()) ?? '').trim().split(/\s+/);
    expect(words).toEqual(SLOW_WORDS);
    expect(await session.page.locator('[data-role="assistant"]').count()).toBe(1);
  }, 60_000);

  it('folds reasoning and tool calls into a summary line after the run and expands them', async () => {
    await send('please use tools');
    const answer = lastAnswer();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');
    const summary = answer.getByTestId('process-summary');
    await summary.waitFor({ timeout: STEP_TIMEOUT });
    expect(await summary.textContent()).toMatch(/^Thought for \d+ s · 3 tools$/);
    expect(await answer.getByTestId('tool-card').count()).toBe(0);
    expect(await answer.textContent()).toContain('the answer is 42');
    await session.page.screenshot({ path: join(SCREENSHOTS, 'folded-run.png') });
    await summary.click();
    expect(await answer.getByTestId('tool-card').count()).toBe(3);
    expect(await answer.getByTestId('tool-card').first().textContent()).toContain('lookup');
    await answer.getByTestId('tool-card').first().locator('button').click();
    expect(await answer.getByTestId('tool-card').first().textContent()).toContain('found:');
    await session.page.screenshot({ path: join(SCREENSHOTS, 'expanded-run.png') });
  }, 60_000);

  it('renders code, tables, math and diagrams, loading each only when needed, under the server CSP', async () => {
    const loaded = new Set<string>();
    session.page.on('request', (request) => {
      const name = request.url().split('/').pop() ?? '';
      if (name.startsWith('math-plugins')) loaded.add('math');
      for (const chunk of ['mermaid', 'typescript', 'engine-javascript'])
        if (name.startsWith(chunk)) loaded.add(chunk);
    });
    const violations: string[] = [];
    session.page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text());
    });
    await send('please show rich markdown');
    const answer = lastAnswer();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');
    await answer.locator('.code-block .shiki').waitFor({ timeout: STEP_TIMEOUT });
    await answer.locator('.katex').first().waitFor({ timeout: STEP_TIMEOUT });
    await answer.locator('.mermaid-diagram svg').waitFor({ timeout: STEP_TIMEOUT });
    expect(await answer.locator('table td').count()).toBe(6);
    expect(await answer.locator('.katex-display').count()).toBe(1);
    expect(await answer.locator('script').count()).toBe(0);
    // Raw HTML is dropped: the tags go, their text stays text.
    expect(await answer.textContent()).toContain('alert(1) stays text');
    expect([...loaded].sort()).toEqual(['engine-javascript', 'math', 'mermaid', 'typescript']);
    expect(violations).toEqual([]);
    await session.page.screenshot({ path: join(SCREENSHOTS, 'rich-markdown.png') });
  }, 60_000);

  it('collapses the left column by dragging past its minimum, keeps it collapsed on reload, and restores it', async () => {
    const column = session.page.getByTestId('left-column');
    const divider = session.page.getByTestId('left-divider');
    const box = await divider.boundingBox();
    if (box === null) throw new Error('no divider');
    const x = box.x + box.width / 2;
    const y = box.y + 300;
    // Drag to 30 px short of the threshold: it stays open at its minimum.
    await session.page.mouse.move(x, y);
    await session.page.mouse.down();
    await session.page.mouse.move(x - 200, y, { steps: 8 });
    await session.page.mouse.move(x - (x - 220) - 20, y, { steps: 4 });
    await session.page.mouse.up();
    expect(await column.getAttribute('data-collapsed')).toBe('false');
    expect(Math.round((await column.boundingBox())?.width ?? 0)).toBe(220);
    // Past the minimum by more than ~40 px: releasing collapses it to the icon rail.
    await session.page.mouse.move(220, y);
    await session.page.mouse.down();
    await session.page.mouse.move(150, y, { steps: 8 });
    await session.page.mouse.up();
    expect(await column.getAttribute('data-collapsed')).toBe('true');
    await expect.poll(async () => Math.round((await column.boundingBox())?.width ?? 0)).toBe(52);
    await session.page.screenshot({ path: join(SCREENSHOTS, 'left-column-rail.png') });
    await session.page.reload();
    await session.page.getByTestId('composer-input').waitFor();
    expect(await column.getAttribute('data-collapsed')).toBe('true');
    // Double-click on the divider toggles it back, at the width it had.
    const railDivider = await divider.boundingBox();
    if (railDivider === null) throw new Error('no divider');
    await session.page.mouse.dblclick(railDivider.x + railDivider.width / 2, y);
    expect(await column.getAttribute('data-collapsed')).toBe('false');
    await expect.poll(async () => Math.round((await column.boundingBox())?.width ?? 0)).toBe(220);
    // And the keyboard: Enter on the focused divider collapses and expands too.
    await divider.focus();
    await session.page.keyboard.press('Enter');
    expect(await column.getAttribute('data-collapsed')).toBe('true');
    await session.page.keyboard.press('Enter');
    expect(await column.getAttribute('data-collapsed')).toBe('false');
  }, 60_000);

  it('shows the three columns with an uploaded file in the artifacts tab', async () => {
    await session.page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await session.page.getByTestId('file-input').setInputFiles({
      name: 'notes.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Notes\n\n- first\n- second\n'),
    });
    await session.page.getByText('notes.md').first().waitFor({ timeout: STEP_TIMEOUT });
    await expect
      .poll(() => session.page.getByTestId('send-button').isEnabled(), { timeout: STEP_TIMEOUT })
      .toBe(true);
    await session.page.getByTestId('composer-input').fill('Summarise the notes, please');
    await session.page.getByTestId('composer-input').press('Enter');
    await expect
      .poll(() => lastAnswer().getAttribute('data-status'), { timeout: STEP_TIMEOUT })
      .toBe('complete');
    await session.page.getByRole('button', { name: 'Show the workbench' }).click();
    const workbench = session.page.getByTestId('right-column');
    await workbench.getByRole('tab', { name: 'Artifacts' }).click();
    await workbench.getByRole('button', { name: 'Open notes.md' }).click();
    await workbench.locator('.markdown h1').waitFor({ timeout: STEP_TIMEOUT });
    expect(await workbench.locator('.markdown li').count()).toBe(2);
    await session.page.screenshot({ path: join(SCREENSHOTS, 'three-columns.png') });
    // The empty states say what will appear.
    await workbench.getByRole('tab', { name: 'Plan' }).click();
    expect(await workbench.getByRole('tabpanel').textContent()).toContain('When the agent makes a plan');
    await session.page.getByRole('button', { name: 'Hide the workbench' }).first().click();
  }, 60_000);

  it('keeps a run going in the background while another conversation is used', async () => {
    await send('stream slowly in the background');
    await expect.poll(() => lastAnswer().textContent(), { timeout: STEP_TIMEOUT }).toContain('w3');
    const first = session.page.locator('.conversation-item', { hasText: 'stream slowly in the background' });
    await send('hello from the second conversation');
    await expect
      .poll(() => lastAnswer().getAttribute('data-status'), { timeout: STEP_TIMEOUT })
      .toBe('complete');
    expect(await lastAnswer().textContent()).toContain('Echo: hello from the second conversation');
    // The first one is still answering, and the left column says so.
    expect(await first.getByTestId('running-indicator').count()).toBe(1);
    await first.locator('a').click();
    const answer = lastAnswer();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');
    expect(((await answer.locator('.markdown').textContent()) ?? '').trim().split(/\s+/)).toEqual(SLOW_WORDS);
    await expect
      .poll(() => first.getByTestId('running-indicator').count(), { timeout: STEP_TIMEOUT })
      .toBe(0);
  }, 60_000);

  it('shows runs started elsewhere as running in the left column, and sees them end', async () => {
    const { page, stack } = session;
    const conversation = await stack.client.createConversation({ title: 'Started by a script' });
    await stack.client.sendMessage(conversation.id, { text: 'stream slowly for the script' });
    await page.reload();
    const item = page.locator('.conversation-item', { hasText: 'Started by a script' });
    await item.getByTestId('running-indicator').waitFor({ timeout: STEP_TIMEOUT });
    // Its stream is watched from the listing: the end arrives without a reload or a poll.
    await expect.poll(() => item.getByTestId('running-indicator').count(), { timeout: STEP_TIMEOUT }).toBe(0);
    expect(await item.getByRole('status', { name: 'New messages' }).count()).toBe(1);
  }, 60_000);

  it('marks a conversation unread when its answer finishes elsewhere, and read once opened', async () => {
    await send('stream slowly while I look elsewhere');
    await expect.poll(() => lastAnswer().textContent(), { timeout: STEP_TIMEOUT }).toContain('w2');
    await session.page.getByRole('button', { name: 'New conversation', exact: true }).click();
    const item = session.page.locator('.conversation-item', {
      hasText: 'stream slowly while I look elsewhere',
    });
    await item.getByRole('status', { name: 'New messages' }).waitFor({ timeout: STEP_TIMEOUT });
    await item.locator('a').click();
    await expect
      .poll(() => item.getByRole('status', { name: 'New messages' }).count(), { timeout: STEP_TIMEOUT })
      .toBe(0);
    // The cursor is the server's: another browser agrees.
    const readEverything = async (): Promise<boolean> => {
      const { conversations } = await session.stack.client.listConversations();
      const conversation = conversations.find((entry) => entry.title.includes('look elsewhere'));
      return conversation !== undefined && conversation.read_seq >= conversation.last_seq;
    };
    await expect.poll(readEverything, { timeout: STEP_TIMEOUT }).toBe(true);
  }, 60_000);

  it('stops a run, marks it, resends it, and keeps both answers as branches', async () => {
    await send('stream slowly, then stop');
    await expect.poll(() => lastAnswer().textContent(), { timeout: STEP_TIMEOUT }).toContain('w3');
    await session.page.getByTestId('stop-button').click();
    await expect
      .poll(() => lastAnswer().getAttribute('data-status'), { timeout: STEP_TIMEOUT })
      .toBe('cancelled');
    expect(await lastAnswer().textContent()).toContain('Stopped.');
    await lastAnswer().getByRole('button', { name: 'Resend' }).click();
    await expect
      .poll(() => lastAnswer().getAttribute('data-status'), { timeout: STEP_TIMEOUT })
      .toBe('complete');
    expect(((await lastAnswer().locator('.markdown').textContent()) ?? '').trim().split(/\s+/)).toEqual(
      SLOW_WORDS,
    );
    const switcher = lastAnswer().locator('.branch-switcher');
    await expect.poll(() => switcher.textContent(), { timeout: STEP_TIMEOUT }).toContain('2 / 2');
    await switcher.getByRole('button', { name: 'Previous branch' }).click();
    await expect
      .poll(() => lastAnswer().getAttribute('data-status'), { timeout: STEP_TIMEOUT })
      .toBe('cancelled');
  }, 60_000);

  it('edits a past message into a new branch; the old branch stays reachable', async () => {
    await send('first question');
    await expect
      .poll(() => lastAnswer().getAttribute('data-status'), { timeout: STEP_TIMEOUT })
      .toBe('complete');
    const user = session.page.locator('[data-role="user"]').last();
    await user.hover();
    await user.getByRole('button', { name: 'Edit' }).click();
    await session.page.getByRole('textbox', { name: 'Edit' }).fill('first question, edited');
    await session.page.getByRole('button', { name: 'Send as a new branch' }).click();
    await expect
      .poll(() => lastAnswer().textContent(), { timeout: STEP_TIMEOUT })
      .toContain('Echo: first question, edited');
    await expect
      .poll(() => lastAnswer().getAttribute('data-status'), { timeout: STEP_TIMEOUT })
      .toBe('complete');
    const switcher = session.page.locator('[data-role="user"]').last().locator('.branch-switcher');
    await expect.poll(() => switcher.textContent(), { timeout: STEP_TIMEOUT }).toContain('2 / 2');
    await switcher.getByRole('button', { name: 'Previous branch' }).click();
    await expect.poll(() => lastAnswer().textContent(), { timeout: STEP_TIMEOUT }).not.toContain('edited');
    expect(await lastAnswer().textContent()).toContain('Echo: first question');
    expect(
      await session.page.locator('[data-role="user"]').last().locator('.branch-switcher').textContent(),
    ).toContain('1 / 2');
  }, 60_000);

  it('guides the first run when no provider is configured, and offers a local Ollama in one click', async () => {
    const { page, stack } = session;
    for (const provider of await stack.client.listProviders()) await stack.client.deleteProvider(provider.id);
    let ollama: FakeServer | undefined;
    try {
      await page.reload();
      await page.getByRole('button', { name: 'New conversation', exact: true }).click();
      const guide = page.getByTestId('first-run');
      await guide.waitFor({ timeout: STEP_TIMEOUT });
      expect(await guide.textContent()).toContain('Connect a model to start');
      await expect
        .poll(() => guide.textContent(), { timeout: STEP_TIMEOUT })
        .toMatch(/No local Ollama found|Ollama is running/);
      await page.screenshot({ path: join(SCREENSHOTS, 'first-run.png') });
      // An OpenAI-compatible server on Ollama's port stands in for Ollama (when the port is free).
      ollama = await startFakeOpenAI({ port: 11434, models: [{ id: 'llama3.2', object: 'model' }] }).catch(
        () => undefined,
      );
      if (ollama === undefined) return;
      await page.reload();
      await page.getByRole('button', { name: 'New conversation', exact: true }).click();
      await expect
        .poll(() => guide.textContent(), { timeout: STEP_TIMEOUT })
        .toContain('Ollama is running on this machine (1 models)');
      await guide.getByRole('button', { name: 'Use Ollama' }).click();
      await guide.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
      expect(await stack.client.listProviders()).toEqual([
        expect.objectContaining({ name: 'ollama', base_url: 'http://127.0.0.1:11434/v1' }),
      ]);
    } finally {
      for (const provider of await stack.client.listProviders())
        await stack.client.deleteProvider(provider.id);
      await ollama?.close();
      await stack.client.createProvider({
        name: 'fake',
        kind: 'openai-compatible',
        base_url: stack.fake.url,
        api_key: 'test-key',
        models: [{ id: 'fake-model' }],
      });
    }
  }, 60_000);

  it('gives every control a name and keeps it reachable by keyboard', async () => {
    await send('hello, accessibility');
    await expect
      .poll(() => lastAnswer().getAttribute('data-status'), { timeout: STEP_TIMEOUT })
      .toBe('complete');
    await session.page.getByRole('button', { name: 'Show the workbench' }).click();
    const unnamed = await session.page.evaluate(() =>
      [
        ...document.querySelectorAll(
          'button, a[href], input, textarea, select, [role="separator"], [role="tab"]',
        ),
      ]
        .filter((element) => !(element instanceof HTMLInputElement && element.type === 'file'))
        .filter((element) => {
          const label =
            element.getAttribute('aria-label') ??
            element.getAttribute('title') ??
            (element.id === '' ? null : document.querySelector(`label[for="${element.id}"]`)?.textContent) ??
            element.closest('label')?.textContent ??
            element.textContent;
          return (label ?? '').trim() === '';
        })
        .map((element) => element.outerHTML.slice(0, 120)),
    );
    expect(unnamed).toEqual([]);
    // Tab from the top of the page reaches the skip link first; it leads to the composer.
    await session.page.reload();
    await session.page.getByTestId('composer-input').waitFor();
    await session.page.keyboard.press('Tab');
    expect(await session.page.evaluate(() => document.activeElement?.textContent)).toContain(
      'Skip to message input',
    );
    await session.page.keyboard.press('Enter');
    expect(await session.page.evaluate(() => document.activeElement?.id)).toBe('composer-input');
    await session.page.getByRole('button', { name: 'Hide the workbench' }).first().click();
  }, 60_000);

  it('searches conversations by title, renames one and deletes one after confirming', async () => {
    await send('a conversation about zebras');
    await expect
      .poll(() => lastAnswer().getAttribute('data-status'), { timeout: STEP_TIMEOUT })
      .toBe('complete');
    const search = session.page.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('zebra');
    const items = session.page.locator('.conversation-item');
    await expect.poll(() => items.count(), { timeout: STEP_TIMEOUT }).toBe(1);
    expect(await items.first().textContent()).toContain('zebras');
    await search.fill('no such title anywhere');
    await session.page.getByText('No conversation matches').waitFor({ timeout: STEP_TIMEOUT });
    await search.fill('zebra');
    await expect.poll(() => items.count(), { timeout: STEP_TIMEOUT }).toBe(1);

    const item = items.first();
    await item.hover();
    await item.getByRole('button', { name: /More actions/ }).click();
    await session.page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = item.getByRole('textbox', { name: 'Rename' });
    await rename.fill('Striped horses');
    await rename.press('Enter');
    await search.fill('striped');
    await expect
      .poll(() => items.first().textContent(), { timeout: STEP_TIMEOUT })
      .toContain('Striped horses');
    expect(await session.page.locator('.conversation-heading').textContent()).toBe('Striped horses');

    await items.first().hover();
    await items
      .first()
      .getByRole('button', { name: /More actions/ })
      .click();
    await session.page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = session.page.getByRole('alertdialog', { name: 'Delete' });
    expect(await confirm.textContent()).toContain('Delete “Striped horses”?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await session.page.getByText('No conversation matches').waitFor({ timeout: STEP_TIMEOUT });
    await search.fill('');
  }, 60_000);
});
