// Browser test of the artifact viewer's issue-26 fixes: an HTML artifact opens on its rendered view
// (not an empty "v1 → v1" diff); the viewer belongs to its conversation (another one does not keep
// showing the previous conversation's artifact); an artifact the agent writes while the Artifacts
// tab is open opens there.
import { join } from 'node:path';
import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS, STEP_TIMEOUT, useWorkbenchSession } from './support/workbench-session.ts';

const session = useWorkbenchSession();

describe('the artifact viewer', () => {
  it('opens an HTML artifact rendered, resets per conversation, and shows a new artifact when the agent writes one', async () => {
    const { page, stack } = session;
    stack.fake.push(
      fakeToolCallReply('create_artifact', {
        title: 'landing.html',
        kind: 'html',
        content: '<!doctype html><h1 id="title">Landing page</h1>',
      }),
      fakeTextReply('The page is in landing.html.'),
    );
    await session.send('Make the landing page');
    await session.answerEnds();
    await page.getByTestId('artifact-chip').first().click();
    const viewer = page.getByTestId('artifact-viewer');
    const sandbox = viewer.getByTestId('artifact-sandbox');
    await sandbox.waitFor({ timeout: STEP_TIMEOUT });
    // One version: its rendered page, no diff to show and none offered.
    expect(await viewer.getByTestId('diff-view').count()).toBe(0);
    expect(await viewer.textContent()).not.toContain('v1 → v1');
    const frame = await (await sandbox.elementHandle())?.contentFrame();
    await expect
      .poll(() => frame?.locator('#title').textContent(), { timeout: STEP_TIMEOUT })
      .toBe('Landing page');
    await page.screenshot({ path: join(SCREENSHOTS, 'artifact-html-rendered.png') });

    // Another conversation: its own (empty) artifacts, not the previous conversation's page.
    stack.fake.push(fakeTextReply('Nothing written yet.'));
    await session.send('Just talk');
    await session.answerEnds();
    const workbench = page.getByTestId('right-column');
    await workbench.getByRole('tab', { name: 'Artifacts' }).click();
    await expect.poll(() => page.getByTestId('artifact-viewer').count(), { timeout: STEP_TIMEOUT }).toBe(0);
    expect(await workbench.textContent()).not.toContain('landing.html');

    // The agent writes one while the tab is open: it opens there.
    stack.fake.push(
      fakeToolCallReply('create_artifact', {
        title: 'notes.md',
        kind: 'markdown',
        content: '# Meeting notes\n\n- Budget agreed\n',
      }),
      fakeTextReply('Notes are in notes.md.'),
    );
    await page.getByTestId('composer-input').fill('Write the meeting notes');
    await page.getByTestId('composer-input').press('Enter');
    await session.answerEnds();
    await viewer.locator('.markdown h1').waitFor({ timeout: STEP_TIMEOUT });
    expect(await viewer.locator('.markdown h1').textContent()).toBe('Meeting notes');
    await page.screenshot({ path: join(SCREENSHOTS, 'artifact-viewer-new-artifact.png') });
  }, 90_000);
});
