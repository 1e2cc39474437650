// Browser tests of artifacts and sub-agents: Debian Chromium against the real server and built UI,
// with a fake model whose replies are scripted per session (the parent and each sub-agent).
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { fakeTextReply, fakeToolCallReply, sessionScripts, type FakeStreamReply } from '@youyou/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { fakeModelReply } from './support/fake-model.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

const PLAN_V1 = '# Release plan\n\n- Draft the notes\n- Tag the build\n';

const SANDBOX_PAGE = `<h1 id="title">Sandboxed page</h1><p id="cookie">not run</p><p id="api">not run</p><p id="origin"></p>
<script>
  try { document.getElementById('cookie').textContent = 'cookie read: [' + document.cookie + ']'; }
  catch (error) { document.getElementById('cookie').textContent = 'cookie blocked: ' + error.name; }
  document.getElementById('origin').textContent = 'origin ' + String(self.origin);
  fetch('/api/conversations', { credentials: 'include' }).then(
    (response) => { document.getElementById('api').textContent = 'api answered ' + response.status; },
    (error) => { document.getElementById('api').textContent = 'api blocked: ' + error.name; },
  );
</script>`;

function slowText(ms: number, text: string): FakeStreamReply {
  const pieces = Math.max(1, Math.round(ms / 50));
  return {
    type: 'stream',
    steps: Array.from({ length: pieces }, () => ({ type: 'text' as const, text })),
    stepDelayMs: 50,
  };
}

const scripts = sessionScripts(
  [
    {
      match: 'Write the release plan',
      replies: [
        fakeToolCallReply('create_artifact', {
          title: 'release-plan.md',
          kind: 'markdown',
          content: PLAN_V1,
        }),
        fakeTextReply('The plan is in release-plan.md.'),
        fakeToolCallReply('update_artifact', {
          artifact: 'release-plan.md',
          edits: [{ find: '- Tag the build', replace: '- Tag the build\n- Announce the release' }],
        }),
        fakeTextReply('Added the announcement.'),
      ],
    },
    {
      match: 'Make a page with a script',
      replies: [
        fakeToolCallReply('create_artifact', { title: 'page.html', kind: 'html', content: SANDBOX_PAGE }),
        fakeTextReply('Here is the page.'),
      ],
    },
    {
      match: 'Research three topics',
      replies: [
        {
          type: 'stream',
          steps: [
            { type: 'tool_call', name: 'spawn_agent', arguments: { task: 'Topic alpha' } },
            { type: 'tool_call', name: 'spawn_agent', arguments: { task: 'Topic beta' } },
            { type: 'tool_call', name: 'spawn_agent', arguments: { task: 'Topic gamma' } },
          ],
        },
        fakeTextReply('Two topics came back; beta was stopped.'),
      ],
    },
    { match: 'Topic alpha', replies: [slowText(4000, 'alpha ')] },
    { match: 'Topic beta', replies: [slowText(60_000, 'beta ')] },
    {
      match: 'Topic gamma',
      replies: [
        {
          type: 'stream',
          stepDelayMs: 50,
          steps: [
            { type: 'reasoning', text: 'Gamma needs a table.' },
            ...slowText(2500, 'g ').steps,
            {
              type: 'tool_call',
              name: 'create_artifact',
              arguments: { title: 'gamma.csv', kind: 'csv', content: 'name,score\ngamma,3\n' },
            },
          ],
        },
        fakeTextReply('Gamma scores 3; the table is gamma.csv.'),
      ],
    },
  ],
  fakeModelReply,
);

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;

beforeAll(async () => {
  stack = await startStack({ reply: (request) => scripts.reply(request) });
  browser = await openBrowser();
  page = browser.page;
  await page.goto(stack.server.loginUrl);
  await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

beforeEach(async () => {
  await page.goto(`${stack.server.url}/#/`);
  await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
});

async function say(text: string, options: { newConversation?: boolean } = {}): Promise<void> {
  if (options.newConversation !== false) {
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  }
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-input').press('Enter');
}

async function answerEnds(status = 'complete'): Promise<void> {
  await expect
    .poll(() => page.locator('[data-role="assistant"]').last().getAttribute('data-status'), {
      timeout: 30_000,
    })
    .toBe(status);
}

describe('artifacts and sub-agents in a browser', () => {
  it('an agent writes a markdown artifact and updates it; the person views both versions and the diff', async () => {
    await say('Write the release plan');
    await answerEnds();
    await page.getByTestId('artifact-chip').first().click();
    const viewer = page.getByTestId('artifact-viewer');
    await viewer.locator('.markdown h1').waitFor({ timeout: STEP_TIMEOUT });
    expect(await viewer.locator('.markdown h1').textContent()).toBe('Release plan');
    expect(await viewer.locator('.markdown li').count()).toBe(2);

    await say('Now add the announcement', { newConversation: false });
    await answerEnds();
    // The open viewer follows the new version.
    await expect.poll(() => viewer.locator('.markdown li').count(), { timeout: STEP_TIMEOUT }).toBe(3);
    const picker = viewer.getByTestId('artifact-version');
    expect(await picker.inputValue()).toBe('2');
    await picker.selectOption('1');
    await expect.poll(() => viewer.locator('.markdown li').count(), { timeout: STEP_TIMEOUT }).toBe(2);
    await picker.selectOption('2');
    await viewer.getByTestId('artifact-compare').click();
    const diff = viewer.getByTestId('diff-view');
    await diff.waitFor({ timeout: STEP_TIMEOUT });
    expect(await diff.locator('.diff-line[data-kind="added"]').allTextContents()).toEqual([
      '+- Announce the release',
    ]);
    expect(await diff.locator('.diff-line[data-kind="removed"]').count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'artifact-diff.png') });
    await viewer.getByTestId('artifact-compare').click();
    await viewer.locator('.markdown h1').waitFor({ timeout: STEP_TIMEOUT });
    await page.screenshot({ path: join(SCREENSHOTS, 'artifact-viewer.png') });
    // Back to the list: the artifact, its kind and its version.
    await viewer.getByRole('button', { name: 'All artifacts' }).click();
    expect(await page.getByTestId('artifact-list').textContent()).toContain('release-plan.md');
    expect(await page.getByTestId('artifact-list').textContent()).toContain('v2');
  }, 90_000);

  it('an html artifact runs in the sandbox: its script cannot read document.cookie or call the API', async () => {
    await say('Make a page with a script');
    await answerEnds();
    await page.getByTestId('artifact-chip').first().click();
    const frameElement = page.getByTestId('artifact-sandbox');
    await frameElement.waitFor({ timeout: STEP_TIMEOUT });
    expect(await frameElement.getAttribute('sandbox')).toBe('allow-scripts');
    const handle = await frameElement.elementHandle();
    const frame = (await handle?.contentFrame()) as Frame;
    await expect
      .poll(() => frame.locator('#api').textContent(), { timeout: STEP_TIMEOUT })
      .toMatch(/^api blocked/);
    expect(await frame.locator('#title').textContent()).toBe('Sandboxed page');
    // The script ran, and the browser refused it the cookie and the API.
    expect(await frame.locator('#cookie').textContent()).toBe('cookie blocked: SecurityError');
    expect(await frame.locator('#origin').textContent()).toBe('origin null');
    // The page itself still has its session (the token cookie is HttpOnly and stays out of scripts).
    expect(await page.evaluate(() => document.cookie)).not.toContain('youyou_token');
  }, 60_000);

  it('three sub-agents run live in the tracker; one is cancelled alone; the popped-out window stays live; the tree and the replay remain', async () => {
    await say('Research three topics');
    const badge = page.getByTestId('agent-badge').first();
    await badge.waitFor({ timeout: STEP_TIMEOUT });
    await badge.click();
    const dialog = page.locator('.tracker-dialog');
    await expect.poll(() => dialog.getByRole('treeitem').count(), { timeout: STEP_TIMEOUT }).toBe(3);
    await expect
      .poll(() => dialog.locator('.agent-node[data-status="running"]').count(), { timeout: STEP_TIMEOUT })
      .toBe(3);
    await dialog.getByRole('treeitem', { name: /Topic gamma/ }).click();
    await expect
      .poll(() => dialog.getByTestId('agent-process').textContent(), { timeout: STEP_TIMEOUT })
      .toContain('g g');
    await page.screenshot({ path: join(SCREENSHOTS, 'agent-tracker.png') });

    // Pop it out: its own window, signed in by the same cookie, live.
    const popupPromise = browser.context.waitForEvent('page');
    await dialog.getByTestId('pop-out-tracker').click();
    const popup = await popupPromise;
    await popup.waitForLoadState();
    expect(popup.url()).toContain('#/tracker/');
    await expect.poll(() => popup.getByRole('treeitem').count(), { timeout: STEP_TIMEOUT }).toBe(3);
    const alphaInPopup = popup.getByRole('treeitem', { name: /Topic alpha/ });
    expect(await alphaInPopup.getAttribute('data-status')).toBe('running');

    // Cancel beta alone, from the popped-out window.
    await popup.getByRole('treeitem', { name: /Topic beta/ }).click();
    await popup.getByTestId('cancel-agent').click();
    await expect
      .poll(() => popup.getByRole('treeitem', { name: /Topic beta/ }).getAttribute('data-status'), {
        timeout: STEP_TIMEOUT,
      })
      .toBe('cancelled');
    // The window follows the others to their end without a reload.
    await expect.poll(() => alphaInPopup.getAttribute('data-status'), { timeout: 20_000 }).toBe('completed');
    await expect
      .poll(() => popup.getByRole('treeitem', { name: /Topic gamma/ }).getAttribute('data-status'), {
        timeout: 20_000,
      })
      .toBe('completed');
    await popup.screenshot({ path: join(SCREENSHOTS, 'agent-tracker-window.png') });
    await popup.close();

    // The parent goes on: beta's cancel is an error result, not a crash.
    await answerEnds();
    expect(await page.locator('[data-role="assistant"]').last().textContent()).toContain(
      'Two topics came back; beta was stopped.',
    );

    // After the end: the Agents tab shows the tree, and the tracker replays a sub-agent's process.
    await page.reload();
    await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
    const show = page.getByRole('button', { name: 'Show the workbench' });
    if (await show.isVisible()) await show.click();
    await page.getByRole('tab', { name: 'Agents' }).click();
    const tab = page.getByTestId('right-column');
    await expect.poll(() => tab.locator('.agent-summary').count(), { timeout: STEP_TIMEOUT }).toBe(3);
    expect(await tab.locator('.agent-summary', { hasText: 'Topic beta' }).textContent()).toContain(
      'cancelled',
    );
    await tab.locator('.agent-summary', { hasText: 'Topic gamma' }).click();
    const replayed = page.locator('.tracker-dialog').getByTestId('agent-detail');
    await expect
      .poll(() => replayed.getByTestId('agent-process').textContent(), { timeout: STEP_TIMEOUT })
      .toContain('Gamma scores 3');
    expect(await replayed.getByTestId('tool-card').count()).toBe(1);
    expect(await replayed.locator('.tool-name').textContent()).toBe('create_artifact');
    expect(await replayed.locator('.thinking-part').count()).toBe(1);
    expect(await replayed.locator('.agent-artifacts').textContent()).toContain('gamma.csv');
    // Its artifact opens in the right column as a table.
    await replayed.locator('.agent-artifacts button').click();
    await page.getByTestId('csv-table').waitFor({ timeout: STEP_TIMEOUT });
    expect(await page.getByTestId('csv-table').locator('td').allTextContents()).toEqual(['gamma', '3']);
  }, 120_000);
});
