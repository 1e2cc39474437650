// Browser test of document ingest (issue 12, spec §4.11): files attached in the composer are
// parsed in the background, the chips say so live, the model is given the parsed text, and a file
// that cannot be read shows its reason and what to do — in the tray and on the sent message.
import { join } from 'node:path';
import { documentFixtures } from '@youyou/testing/documents';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS, STEP_TIMEOUT, useWorkbenchSession } from './support/workbench-session.ts';

const session = useWorkbenchSession();
/** A document that was read: parsed, or already indexed by the knowledge module. */
const READ = '.document-status[data-status="parsed"], .document-status[data-status="indexed"]';

describe('documents in the browser', () => {
  it('parses an attached docx, shows an encrypted PDF’s reason, and the model reads only the readable one', async () => {
    const fixtures = await documentFixtures();
    const docx = fixtures.get('report-en.docx');
    const locked = fixtures.get('locked.pdf');
    if (docx === undefined || locked === undefined) throw new Error('fixtures missing');
    const page = session.page;
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByTestId('file-input').setInputFiles([
      { name: docx.name, mimeType: docx.media_type, buffer: Buffer.from(docx.bytes) },
      { name: locked.name, mimeType: locked.media_type, buffer: Buffer.from(locked.bytes) },
    ]);
    const tray = page.locator('.attachment-tray');
    await expect.poll(() => tray.locator(READ).count(), { timeout: STEP_TIMEOUT }).toBe(1);
    const failure = tray.locator('.document-status[data-status="failed"]');
    await failure.waitFor({ timeout: STEP_TIMEOUT });
    expect(await failure.getAttribute('data-reason')).toBe('encrypted');
    expect(await failure.textContent()).toContain('Could not be read: it is protected with a password.');
    expect(await failure.textContent()).toContain('Remove the password, then upload it again.');
    await expect
      .poll(() => page.getByTestId('send-button').isEnabled(), { timeout: STEP_TIMEOUT })
      .toBe(true);
    await page.getByTestId('composer-input').fill('which documents can you read?');
    await page.getByTestId('composer-input').press('Enter');
    const answer = session.lastAnswer();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');
    expect(await answer.textContent()).toContain(
      'Documents: report-en.docx (read), locked.pdf (unreadable).',
    );
    const message = page.locator('[data-role="user"]').last();
    await expect
      .poll(() => message.locator(READ).textContent(), {
        timeout: STEP_TIMEOUT,
      })
      .toMatch(/^Read: \d+ word\(s\)$/);
    const sentFailure = message.locator('.document-status[data-status="failed"]');
    expect(await sentFailure.getAttribute('data-reason')).toBe('encrypted');
    expect(await sentFailure.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'document-status.png') });
  }, 90_000);
});
