// Browser tests of context assembly and memory (spec §4.10, §4.13): "what the model saw" from a
// message after the oldest exchange was trimmed, the memory page (off by default, add, search,
// edit, delete), /remember, and a proposed memory accepted from its confirm card.
import { join } from 'node:path';
import { lastUserText, type FakeReply, type RecordedRequest } from '@youyou/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { fakeModelReply } from './support/fake-model.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

const text = (value: string): FakeReply => ({ type: 'stream', steps: [{ type: 'text', text: value }] });

function systemOf(request: RecordedRequest): string {
  const messages = (request.body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  return messages
    .filter((message) => message.role === 'system')
    .map((message) =>
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    )
    .join('\n');
}

function reply(request: RecordedRequest): FakeReply {
  const last = lastUserText(request.body);
  if (systemOf(request).includes('long-term memory for their AI assistant')) {
    return last.includes('PROPOSE')
      ? text(
          JSON.stringify({
            candidates: [
              { type: 'procedure', content: 'Waters the garden at dawn', confidence: 0.9, scope: 'user' },
            ],
          }),
        )
      : text('{"candidates": []}');
  }
  if (last.includes('LONG')) return text(`Noted. ${'y'.repeat(24_000)}`);
  if (last.includes('PROPOSE')) return text('I will keep that in mind.');
  return fakeModelReply(request);
}

describe('context and memory in a browser', () => {
  let stack: Stack;
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let page: Page;
  const api = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${stack.server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${stack.server.token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  };
  const settled = async (conversationId: string, runId: string): Promise<void> => {
    const deadline = Date.now() + STEP_TIMEOUT;
    while (['pending', 'running'].includes((await stack.client.getRun(runId)).status)) {
      if (Date.now() > deadline) throw new Error(`run ${runId} did not end`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    void conversationId;
  };
  const lastAnswer = () => page.locator('[data-role="assistant"]').last();
  const answerEnds = async (): Promise<void> => {
    await expect
      .poll(() => lastAnswer().getAttribute('data-status'), { timeout: STEP_TIMEOUT })
      .toBe('complete');
  };
  const openMemorySettings = async () => {
    await page.getByRole('button', { name: 'Settings' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Memory', exact: true }).click();
    await dialog.getByRole('heading', { name: 'Memory' }).waitFor({ timeout: STEP_TIMEOUT });
    return dialog;
  };

  beforeAll(async () => {
    stack = await startStack({ reply });
    browser = await openBrowser();
    page = browser.page;
    await page.goto(stack.server.loginUrl);
    await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('shows what the model saw from a message: tokens per part, and the oldest exchange left out with its reason', async () => {
    await stack.client.createProvider({
      name: 'small',
      kind: 'openai-compatible',
      base_url: stack.fake.url,
      api_key: 'test-key',
      models: [{ id: 'tiny', context_window: 40_000 }],
    });
    const profile = (await api('POST', '/api/profiles', {
      name: 'Small window',
      systemPrompt: '',
      model: { id: 'small/tiny' },
      parameters: { max_tokens: 20_000 },
      tools: { allow: ['*'], deny: [], confirm: [] },
      context: { policy: 'no-compaction' },
      hitl: { askOnAmbiguity: false, timeoutSec: null },
      budget: {},
    })) as { id: string };
    const conversation = await stack.client.createConversation({ title: 'Long talk', profileId: profile.id });
    for (const word of ['first', 'second']) {
      const { run } = await stack.client.sendMessage(conversation.id, {
        text: `${word} LONG ${'a'.repeat(24_000)}`,
      });
      await settled(conversation.id, run.id);
    }
    await page.goto(`${stack.server.url}/#/c/${conversation.id}`);
    const composer = page.getByTestId('composer-input');
    await composer.fill('And what now?');
    await composer.press('Enter');
    await expect
      .poll(() => page.locator('[data-role="assistant"]').count(), { timeout: STEP_TIMEOUT })
      .toBe(3);
    await answerEnds();

    await lastAnswer().getByRole('button', { name: 'What the model saw' }).click();
    const dialog = page.getByRole('dialog', { name: 'What the model saw' });
    const report = dialog.getByTestId('context-report');
    await report.waitFor({ timeout: STEP_TIMEOUT });
    expect(await report.textContent()).toContain('small/tiny');
    expect(await report.locator('tr[data-slot="history"]').textContent()).toContain('History');
    expect(await report.locator('tr[data-slot="memory"]').textContent()).toContain('off');
    const trims = report.getByTestId('context-trims');
    expect(await trims.textContent()).toContain('2 oldest messages — left out');
    expect(await trims.textContent()).toContain('the request did not fit the context window');
    await page.screenshot({ path: join(SCREENSHOTS, 'context-what-the-model-saw.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The first answer fitted whole: nothing was trimmed.
    await page
      .locator('[data-role="assistant"]')
      .first()
      .getByRole('button', { name: 'What the model saw' })
      .click();
    await dialog
      .getByText('Nothing was trimmed: the model saw everything.')
      .waitFor({ timeout: STEP_TIMEOUT });
    await dialog.getByRole('button', { name: 'Close' }).click();
  }, 90_000);

  it('the memory page: off by default, turned on, a memory added, found, edited and deleted; past the capacity cap the least recently used is evicted', async () => {
    const dialog = await openMemorySettings();
    const enabled = dialog.getByTestId('memory-enabled');
    expect(await enabled.isChecked()).toBe(false);
    await dialog.getByText('No memories yet.').waitFor({ timeout: STEP_TIMEOUT });
    await enabled.check();
    await expect.poll(async () => (await stack.client.memorySettings()).enabled).toBe(true);

    await dialog.getByRole('button', { name: 'Add memory' }).click();
    const form = dialog.locator('.memory-form');
    await form.getByLabel('What to remember').fill('Prefers metric units');
    await form.getByLabel('Kind').selectOption('preference');
    await form.getByRole('button', { name: 'Save' }).click();
    const item = dialog.getByTestId('memory-item').filter({ hasText: 'Prefers metric units' });
    await item.waitFor({ timeout: STEP_TIMEOUT });
    expect(await item.textContent()).toContain('Preference');

    await dialog.getByRole('searchbox', { name: 'Search memories' }).fill('imperial');
    await dialog.getByText('No memory matches.').waitFor({ timeout: STEP_TIMEOUT });
    await dialog.getByRole('searchbox', { name: 'Search memories' }).fill('metric');
    await item.waitFor({ timeout: STEP_TIMEOUT });

    await item.getByRole('button', { name: 'Edit' }).click();
    await dialog.locator('.memory-form').getByLabel('What to remember').fill('Prefers metric units, always');
    await dialog.locator('.memory-form').getByRole('button', { name: 'Save' }).click();
    const edited = dialog.getByTestId('memory-item').filter({ hasText: 'Prefers metric units, always' });
    await edited.waitFor({ timeout: STEP_TIMEOUT });
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-memory.png') });

    await edited.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete' }).getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('searchbox', { name: 'Search memories' }).fill('');
    await dialog.getByText('No memories yet.').waitFor({ timeout: STEP_TIMEOUT });
    expect((await stack.client.listMemories()).total).toBe(0);

    // The capacity cap is a setting of the page; one memory past it evicts the least recently used.
    await dialog.getByTestId('memory-capacity').fill('1');
    await expect.poll(async () => (await stack.client.memorySettings()).capacity).toBe(1);
    for (const content of ['Cycles to work', 'Reads before bed']) {
      await dialog.getByRole('button', { name: 'Add memory' }).click();
      await dialog.locator('.memory-form').getByLabel('What to remember').fill(content);
      await dialog.locator('.memory-form').getByRole('button', { name: 'Save' }).click();
      await dialog.getByTestId('memory-item').filter({ hasText: content }).waitFor({ timeout: STEP_TIMEOUT });
    }
    await dialog
      .getByText('Saved; 1 least recently used memories were removed to stay within the capacity.')
      .waitFor({ timeout: STEP_TIMEOUT });
    expect((await stack.client.listMemories()).memories.map((memory) => memory.content)).toEqual([
      'Reads before bed',
    ]);
    await stack.client.clearMemories();
    await stack.client.updateMemorySettings({ capacity: 500 });
    await dialog.getByRole('button', { name: 'Close settings' }).click();
  }, 60_000);

  it('/remember stores at once; a proposed memory is a HITL card and is stored only when that card is answered "remember"', async () => {
    await stack.client.updateMemorySettings({ enabled: true, propose_candidates: true });
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    const composer = page.getByTestId('composer-input');
    await composer.fill('/remem');
    await page.getByRole('option', { name: /\/remember/ }).waitFor({ timeout: STEP_TIMEOUT });
    await composer.press('Enter');
    const commandForm = page.getByRole('form', { name: 'Parameters of /remember' });
    await commandForm.getByLabel('What to remember').fill('Grows tomatoes on the balcony');
    await commandForm.getByRole('button', { name: 'Run' }).click();
    await page.getByText('Remembered.').waitFor({ timeout: STEP_TIMEOUT });
    expect((await stack.client.listMemories()).memories.map((memory) => memory.content)).toEqual([
      'Grows tomatoes on the balcony',
    ]);

    await composer.fill('I water the garden at dawn. PROPOSE');
    await composer.press('Enter');
    await answerEnds();
    // The candidate's confirmation is a HITL card like any other (spec §4.13): a form on the answer.
    const card = lastAnswer().getByTestId('hitl-card');
    await card.waitFor({ timeout: STEP_TIMEOUT });
    expect(await card.textContent()).toContain('Remember this (procedure)? Waters the garden at dawn');
    expect(await card.getAttribute('data-card-kind')).toBe('form');
    expect((await stack.client.listMemories()).total).toBe(1);
    await card.getByLabel('What to remember').fill('Waters the garden at dawn, before work');
    await page.screenshot({ path: join(SCREENSHOTS, 'memory-candidate-card.png') });
    await card.getByRole('button', { name: 'Submit' }).click();
    await expect
      .poll(() => card.getAttribute('data-card-status'), { timeout: STEP_TIMEOUT })
      .toBe('answered');
    const contents = (await stack.client.listMemories()).memories.map((memory) => memory.content);
    expect(contents).toEqual(
      expect.arrayContaining(['Waters the garden at dawn, before work', 'Grows tomatoes on the balcony']),
    );
    await stack.client.clearMemories();
    await stack.client.updateMemorySettings({ enabled: false });
  }, 60_000);
});
