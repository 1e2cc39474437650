// Browser test of export/import archives (spec §4.16): a project with artifacts exported from its
// button in the project list, imported in Settings → Data after its preview (a copy named
// "Launch (2)", the name being taken), reads the same; an import cancelled at its preview and a
// tampered archive change nothing.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { fakeTextReply, fakeToolCallReply, sessionScripts } from '@youyou/testing';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { fakeModelReply } from './support/fake-model.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

const scripts = sessionScripts(
  [
    {
      match: 'Write the launch plan',
      replies: [
        fakeToolCallReply('create_artifact', {
          title: 'launch-plan.md',
          kind: 'markdown',
          content: '# Launch plan\n\n- Book the venue\n',
        }),
        fakeTextReply('The plan is in launch-plan.md.'),
        fakeToolCallReply('update_artifact', {
          artifact: 'launch-plan.md',
          edits: [{ find: '- Book the venue', replace: '- Book the venue (Hall B)' }],
        }),
        fakeTextReply('Hall B is in the plan.'),
      ],
    },
  ],
  fakeModelReply,
);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A value with its UUIDs renamed by order of first appearance: equal when equal up to ids. */
function upToIds(value: unknown): unknown {
  const names = new Map<string, string>();
  return JSON.parse(
    JSON.stringify(value).replace(UUID, (id) => {
      if (!names.has(id)) names.set(id, `id-${String(names.size + 1)}`);
      return names.get(id) ?? id;
    }),
  ) as unknown;
}

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let projectId: string;
let conversationId: string;

async function settle(runId: string): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT;
  while ((await stack.client.getRun(runId)).status !== 'completed') {
    if (Date.now() > deadline) throw new Error(`run ${runId} did not complete`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  stack = await startStack({ reply: (request) => scripts.reply(request) });
  const project = await stack.client.createProject({ name: 'Launch' });
  projectId = project.id;
  const conversation = await stack.client.createConversation({ projectId });
  conversationId = conversation.id;
  const first = await stack.client.sendMessage(conversationId, { text: 'Write the launch plan' });
  await settle(first.run.id);
  const second = await stack.client.sendMessage(conversationId, { text: 'Add the venue' });
  await settle(second.run.id);
  browser = await openBrowser();
  page = browser.page;
  await page.goto(stack.server.loginUrl);
  await page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** What the list and the Query show of every conversation named `title`'s project `name`. */
async function projectsNamed(name: string) {
  const projects = (await stack.client.listProjects()).filter((project) => project.name === name);
  const result = [];
  for (const project of projects) {
    const { conversations } = await stack.client.listConversations({ projectId: project.id });
    const views = [];
    for (const conversation of conversations) {
      views.push({
        listed: conversation,
        view: await stack.client.getConversation(conversation.id),
        artifacts: await stack.client.listArtifacts(conversation.id),
      });
    }
    result.push({ project, views });
  }
  return result;
}

async function openData() {
  await page.getByRole('button', { name: 'Settings' }).last().click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('button', { name: 'Data' }).click();
  return dialog;
}

describe('export and import archives in the browser', () => {
  let archivePath: string;

  it('a project exported from the project list and imported in Settings → Data reads the same, with new ids', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export project · Launch' }).click();
    const downloaded = await downloading;
    expect(downloaded.suggestedFilename()).toBe('Launch.youyou.zip');
    archivePath = join(stack.root, 'Launch.youyou.zip');
    await downloaded.saveAs(archivePath);

    const dialog = await openData();
    await dialog.getByLabel('Archive (.zip)').setInputFiles(archivePath);
    // Read first: what will be created, and that "Launch" exists here, so it comes in as a copy.
    const preview = dialog.getByTestId('archive-preview');
    await preview.waitFor({ timeout: STEP_TIMEOUT });
    expect(await preview.textContent()).toContain(
      'A project named “Launch” already exists: this one comes in as a copy named “Launch (2)”.',
    );
    expect(await preview.textContent()).toContain('1 conversation(s)');
    await preview.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'archive-import-preview.png') });
    await preview.getByRole('button', { name: 'Import as a copy' }).click();
    await dialog
      .getByTestId('archive-imported')
      .filter({ hasText: 'Imported 1 conversation(s) and 1 new project(s).' })
      .waitFor({ timeout: STEP_TIMEOUT });
    await page.screenshot({ path: join(SCREENSHOTS, 'archive-imported.png') });
    await dialog.getByRole('button', { name: 'Close settings' }).click();

    const [original] = await projectsNamed('Launch');
    const [copy] = await projectsNamed('Launch (2)');
    expect(original?.project.id).toBe(projectId);
    expect(copy?.project.id).not.toBe(projectId);
    expect(copy?.views[0]?.listed.id).not.toBe(conversationId);
    expect(upToIds(copy?.views)).toEqual(upToIds(original?.views));

    // The person sees the same conversation twice in the list: open each and read it.
    const read = async (index: number) => {
      const groups = page.locator('.project-group', { hasText: 'Launch' });
      await (
        index === 0 ? groups.filter({ hasNotText: 'Launch (2)' }) : groups.filter({ hasText: 'Launch (2)' })
      )
        .locator('.conversation-link')
        .first()
        .click();
      await page.getByText('Hall B is in the plan.').waitFor({ timeout: STEP_TIMEOUT });
      return page.locator('[data-role]').allInnerTexts();
    };
    expect(await read(1)).toEqual(await read(0));
  }, 90_000);

  it('an import cancelled at its preview imports nothing', async () => {
    const before = (await stack.client.listProjects()).map((project) => project.name).sort();
    const dialog = await openData();
    await dialog.getByLabel('Archive (.zip)').setInputFiles(archivePath);
    const preview = dialog.getByTestId('archive-preview');
    await preview.waitFor({ timeout: STEP_TIMEOUT });
    // Two "Launch" projects now: the next copy's name is the first free one.
    expect(await preview.textContent()).toContain('copy named “Launch (3)”');
    await preview.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByTestId('archive-cancelled').waitFor({ timeout: STEP_TIMEOUT });
    expect(await dialog.getByTestId('archive-preview').count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'archive-import-cancelled.png') });
    await dialog.getByRole('button', { name: 'Close settings' }).click();
    expect((await stack.client.listProjects()).map((project) => project.name).sort()).toEqual(before);
  }, 60_000);

  it('a tampered archive is refused with the reason and imports nothing', async () => {
    const entries = unzipSync(new Uint8Array(await readFile(archivePath)));
    const path = Object.keys(entries).find((name) => name.startsWith('conversations/')) ?? '';
    entries[path] = strToU8(strFromU8(entries[path] ?? new Uint8Array()).replace('Hall B', 'Hall Z'));
    const tamperedPath = join(stack.root, 'tampered.youyou.zip');
    await writeFile(tamperedPath, zipSync(entries));
    const before = await projectsNamed('Launch');

    const dialog = await openData();
    await dialog.getByLabel('Archive (.zip)').setInputFiles(tamperedPath);
    await dialog
      .getByRole('alert')
      .filter({ hasText: /The archive was not imported: .*does not match its checksum/ })
      .waitFor({ timeout: STEP_TIMEOUT });
    await page.screenshot({ path: join(SCREENSHOTS, 'archive-refused.png') });
    await dialog.getByRole('button', { name: 'Close settings' }).click();
    // Reading a conversation moves its read mark; what is stored is the same.
    const stored = (entries: Awaited<ReturnType<typeof projectsNamed>>) =>
      entries.map((entry) => ({
        project: entry.project.id,
        conversations: entry.views.map((view) => [view.listed.id, view.view.messages, view.artifacts]),
      }));
    expect(stored(await projectsNamed('Launch'))).toEqual(stored(before));
    expect(await stack.client.listProjects()).toHaveLength(2);
  }, 60_000);
});
