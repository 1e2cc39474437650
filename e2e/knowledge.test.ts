// Browser test of retrieval and @ references (spec §4.12, §4.14, issue 12): the composer's @ opens
// a picker driven by the keyboard, the chosen artifact is attached to the turn, the model searches
// the project's knowledge and cites it, and clicking the citation opens the document viewer at the
// cited block; Settings → Knowledge shows the item indexed.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  fakeTextReply,
  fakeToolCallReply,
  lastUserText,
  type FakeReply,
  type RecordedRequest,
} from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { fakeModelReply } from './support/fake-model.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

const PLAN = [
  '# Launch plan',
  '',
  '## Schedule',
  '',
  'The launch is in September, after the beta closes.',
  '',
  '## Venue',
  '',
  'The venue is Hall B of the Riverside Centre; it costs 12,000 a day.',
  '',
].join('\n');

interface ChatMessage {
  role?: string;
  content?: unknown;
}

/** The fake model: writes the plan, then answers a question by searching and citing. */
function reply(request: RecordedRequest): FakeReply {
  const messages = ((request.body as { messages?: ChatMessage[] }).messages ?? []) as ChatMessage[];
  const last = messages.at(-1);
  const text = lastUserText(request.body);
  if (text.includes('Write the launch plan')) {
    if (last?.role === 'tool') return fakeTextReply('The plan is in launch-plan.md.');
    return fakeToolCallReply('create_artifact', { title: 'launch-plan.md', kind: 'markdown', content: PLAN });
  }
  if (text.includes('What does the venue cost')) {
    if (last?.role === 'tool') {
      const found = /link: (youyou-doc:\S+)/.exec(
        typeof last.content === 'string' ? last.content : JSON.stringify(last.content),
      );
      return fakeTextReply(
        `It costs 12,000 a day [launch-plan.md › Venue](${found?.[1] ?? 'youyou-doc:missing'}).`,
      );
    }
    return fakeToolCallReply('search_knowledge', { query: 'Hall B' });
  }
  return fakeModelReply(request);
}

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let conversationId: string;

async function settle(runId: string): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT;
  while ((await stack.client.getRun(runId)).status !== 'completed') {
    if (Date.now() > deadline) throw new Error(`run ${runId} did not complete`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  stack = await startStack({ reply });
  const project = await stack.client.createProject({ name: 'Launch' });
  const conversation = await stack.client.createConversation({ projectId: project.id });
  conversationId = conversation.id;
  const written = await stack.client.sendMessage(conversationId, { text: 'Write the launch plan' });
  await settle(written.run.id);
  const deadline = Date.now() + STEP_TIMEOUT;
  while ((await stack.client.listKnowledge(project.id)).counts.indexed < 1) {
    if (Date.now() > deadline) throw new Error('the plan was not indexed');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  browser = await openBrowser();
  page = browser.page;
  await page.goto(stack.server.loginUrl);
  await page.goto(`${stack.server.url}/#/c/${conversationId}`);
  await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('retrieval and @ references in the browser', () => {
  it('@ opens a picker; arrow keys and Enter attach an artifact to the turn, which the model receives', async () => {
    const input = page.getByTestId('composer-input');
    await input.click();
    await input.pressSequentially('What does the venue cost? @launch');
    const picker = page.getByTestId('reference-picker');
    await picker
      .getByRole('option', { name: /launch-plan\.md/ })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
    const options = picker.getByRole('option');
    const labels = await options.allTextContents();
    const index = labels.findIndex((label) => label.includes('launch-plan.md') && label.includes('Artifact'));
    expect(index).toBeGreaterThanOrEqual(0);
    for (let step = 0; step < index; step += 1) await input.press('ArrowDown');
    await input.press('Enter');
    await page
      .getByTestId('reference-chip')
      .filter({ hasText: 'launch-plan.md' })
      .waitFor({ timeout: STEP_TIMEOUT });
    await expect.poll(() => input.inputValue()).toBe('What does the venue cost? ');
    await page.screenshot({ path: join(SCREENSHOTS, 'reference-picker.png') });
    await input.press('Enter');
    await page
      .locator('[data-role="assistant"]')
      .last()
      .locator('a.citation-link')
      .waitFor({ timeout: STEP_TIMEOUT });
    await page
      .getByTestId('reference-part')
      .filter({ hasText: 'launch-plan.md' })
      .waitFor({ timeout: STEP_TIMEOUT });
    const sent = JSON.stringify(
      stack.fake.chatRequests.filter((request) => lastUserText(request.body).includes('venue cost')),
    );
    expect(sent).toContain('<artifact id=');
    expect(sent).toContain('Riverside Centre');
  });

  it('clicking the citation opens the document viewer in the right column at the cited block', async () => {
    const citation = page.locator('[data-role="assistant"]').last().locator('a.citation-link');
    const href = (await citation.getAttribute('href')) ?? '';
    const block = Number(/#block-(\d+)$/.exec(href)?.[1] ?? '-1');
    expect(block).toBeGreaterThanOrEqual(0);
    await citation.click();
    const viewer = page.getByTestId('document-viewer');
    await viewer.waitFor({ timeout: STEP_TIMEOUT });
    const cited = viewer.locator('.document-block.cited');
    await cited.waitFor({ timeout: STEP_TIMEOUT });
    expect(await cited.getAttribute('data-block')).toBe(String(block));
    await expect.poll(() => viewer.textContent()).toContain('Hall B of the Riverside Centre');
    expect(await viewer.locator(`[data-block="${String(block)}"]`).textContent()).toMatch(/Venue|Hall B/);
    await page.screenshot({ path: join(SCREENSHOTS, 'citation-viewer.png') });
  });

  it('Settings → Knowledge lists the artifact as indexed, with a rebuild', async () => {
    // The settings section has an address of its own (the open viewer may cover the sidebar's button).
    await page.goto(`${stack.server.url}/#/settings/knowledge`);
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('heading', { name: 'Knowledge' }).waitFor({ timeout: STEP_TIMEOUT });
    const items = dialog.getByTestId('knowledge-items');
    await items.getByText('launch-plan.md').waitFor({ timeout: STEP_TIMEOUT });
    await expect.poll(() => items.textContent()).toContain('Indexed');
    await dialog.getByRole('button', { name: 'Rebuild index' }).click();
    await expect
      .poll(() => dialog.getByTestId('knowledge-counts').textContent(), { timeout: STEP_TIMEOUT })
      .toContain('1 indexed');
    await page.screenshot({ path: join(SCREENSHOTS, 'knowledge-settings.png') });
    await dialog.getByRole('button', { name: 'Close settings' }).click();
  });

  it('the project parse policy is edited there: a bad service URL is refused with the reason, a good one is kept', async () => {
    await page.goto(`${stack.server.url}/#/settings/knowledge`);
    const form = page.getByRole('dialog', { name: 'Settings' }).getByTestId('parse-policy');
    await form.waitFor({ timeout: STEP_TIMEOUT });
    await form.getByTestId('parse-policy-chain-pdf').selectOption('builtin-then-service');
    await form.getByRole('checkbox', { name: 'Compare both parsers for pdf' }).check();
    // The browser lets a URL input hold anything typed; the server is what refuses it.
    await form.getByTestId('parse-policy-url').evaluate((input) => input.setAttribute('type', 'text'));
    await form.getByTestId('parse-policy-url').fill('ftp://parser.invalid');
    await form.getByRole('button', { name: 'Save parse policy' }).click();
    await form.getByRole('alert').waitFor({ timeout: STEP_TIMEOUT });
    const projectId = (await stack.client.listProjects())[0]?.id ?? '';
    expect((await stack.client.getParsePolicy(projectId)).formats.pdf).toBeUndefined();

    await form.getByTestId('parse-policy-url').fill('http://127.0.0.1:8010');
    await form.getByRole('button', { name: 'Save parse policy' }).click();
    await form.getByRole('status').waitFor({ timeout: STEP_TIMEOUT });
    expect(await stack.client.getParsePolicy(projectId)).toMatchObject({
      formats: { pdf: { chain: ['builtin', 'http-service'], cross_validate: true } },
      service: { url: 'http://127.0.0.1:8010' },
    });
    await page.screenshot({ path: join(SCREENSHOTS, 'parse-policy.png') });
  });
});
