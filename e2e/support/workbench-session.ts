import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  createTestDatabase,
  type DatabaseKind,
  type TestDatabase,
} from '../../apps/server/test/support/databases.ts';
import { openBrowser } from './browser.ts';
import { startStack, type Stack } from './stack.ts';

export const SCREENSHOTS = join(import.meta.dirname, '..', 'screenshots');
export const STEP_TIMEOUT = 15_000;

/** One test file's workbench: the stack, a signed-in page, and the steps the tests share. */
export interface WorkbenchSession {
  readonly stack: Stack;
  readonly page: Page;
  /** Types a message in a new conversation and sends it with Enter. */
  send(text: string): Promise<void>;
  /** The newest answer on the page. */
  lastAnswer(target?: Page): Locator;
  /** Waits until the newest answer has ended with this status. */
  answerEnds(status?: string): Promise<void>;
}

/**
 * Starts the stack and a signed-in browser before the file's (or the describe block's) tests, stops
 * them after, and opens the workbench's start page before each test. `database: 'postgres'` runs the
 * server on a fresh PostgreSQL schema (as the server tests do) instead of SQLite.
 */
export function useWorkbenchSession(options: { database?: DatabaseKind } = {}): WorkbenchSession {
  let stack: Stack | undefined;
  let browser: Awaited<ReturnType<typeof openBrowser>> | undefined;
  let database: TestDatabase | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(options.database ?? 'sqlite');
    stack = await startStack(database.url === undefined ? {} : { databaseUrl: database.url });
    browser = await openBrowser();
    await browser.page.goto(stack.server.loginUrl);
    await browser.page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await database?.drop();
  });

  beforeEach(async () => {
    await session.page.goto(`${session.stack.server.url}/#/`);
    await session.page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
  });

  const session: WorkbenchSession = {
    get stack() {
      if (stack === undefined) throw new Error('the stack is not started');
      return stack;
    },
    get page() {
      if (browser === undefined) throw new Error('the browser is not open');
      return browser.page;
    },
    async send(text) {
      const page = session.page;
      await page.getByRole('button', { name: 'New conversation', exact: true }).click();
      await page.getByTestId('composer-input').fill(text);
      await page.getByTestId('composer-input').press('Enter');
    },
    lastAnswer(target) {
      return (target ?? session.page).locator('[data-role="assistant"]').last();
    },
    async answerEnds(status = 'complete') {
      const answer = session.lastAnswer();
      const deadline = Date.now() + STEP_TIMEOUT;
      while ((await answer.getAttribute('data-status').catch(() => null)) !== status) {
        if (Date.now() > deadline) throw new Error(`the newest answer did not end ${status}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  return session;
}
