// Browser tests of the UI-schema renderer (spec §4.6): extension panels as right-column tabs (an
// A2UI basic-catalog surface among them), a broken panel that shows its placeholder while the page
// keeps working, a card posted by a tool, and a HITL form card checked by the server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ToolHandler } from '@youyou/agent';
import { adaptA2uiSurface, type UiPanel } from '@youyou/contracts';
import { fakeAskUserReply, fakeTextReply, fakeToolCallReply, sessionScripts } from '@youyou/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openBrowser, openWorkbenchTab } from './support/browser.ts';
import { fakeModelReply } from './support/fake-model.ts';
import { startStack, type Stack } from './support/stack.ts';
import { SCREENSHOTS, STEP_TIMEOUT } from './support/workbench-session.ts';

const a2uiSample = (name: string) =>
  adaptA2uiSurface(
    JSON.parse(
      readFileSync(join(import.meta.dirname, '..', 'packages/contracts/test/a2ui-samples', name), 'utf8'),
    ),
  );
const booking = a2uiSample('booking-form.json');
const reading = a2uiSample('reading-list.json');

const PANELS: UiPanel[] = [
  {
    id: 'example.booking',
    source: 'extension:example',
    title: { en: 'Booking', 'zh-CN': '预订' },
    schema: booking.document,
  },
  {
    id: 'example.reading',
    source: 'extension:example',
    title: { en: 'Reading', 'zh-CN': '阅读' },
    schema: reading.document,
  },
  {
    id: 'example.broken',
    source: 'extension:example',
    title: { en: 'Broken', 'zh-CN': '损坏' },
    // A document from a newer vocabulary this renderer does not speak.
    schema: { version: 2, root: { component: 'Hologram' } },
  },
];

const WEEK = {
  version: 1,
  data: {
    hours: [
      { label: 'Mon', value: 3 },
      { label: 'Tue', value: 5 },
      { label: 'Wed', value: 2 },
      { label: 'Thu', value: 6 },
      { label: 'Fri', value: 4 },
    ],
  },
  root: {
    component: 'Column',
    children: [
      {
        component: 'KeyValue',
        items: [
          { label: 'Total', value: '20 h' },
          { label: 'Busiest day', value: 'Thursday' },
        ],
      },
      { component: 'ChartLite', title: 'Hours per day', points: { path: '/hours' }, unit: 'h' },
      { component: 'Markdown', text: 'Two days **over 5 h**: plan a lighter Friday.' },
    ],
  },
};

const scripts = sessionScripts(
  [
    {
      match: 'Summarise my week',
      replies: [
        fakeToolCallReply('show_card', { title: 'Your week', schema: WEEK }),
        fakeTextReply('The card above sums up your week.'),
      ],
    },
    {
      match: 'File a ticket',
      replies: [
        fakeAskUserReply({
          question: 'Which ticket should I file this under?',
          kind: 'form',
          fields: [
            {
              id: 'ticket',
              type: 'text',
              label: 'Ticket',
              required: true,
              pattern: '[A-Z]+-[0-9]+',
              patternMessage: 'a key like ABC-12',
            },
            { id: 'urgent', type: 'checkbox', label: 'Urgent' },
          ],
        }),
        fakeTextReply('Filed under the ticket you gave.'),
      ],
    },
  ],
  fakeModelReply,
);

const booked: Record<string, unknown>[] = [];
const bookTable: ToolHandler = {
  name: 'book_table',
  description: 'Books a table.',
  parameters: {
    type: 'object',
    properties: { name: { type: 'string', minLength: 1 }, seats: { type: 'array' } },
  },
  mutating: false,
  execute: ({ arguments: input }) => {
    booked.push({ ...input });
    return { content: `Booked a table for ${String(input['name'])}.` };
  },
};

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;

beforeAll(async () => {
  stack = await startStack({ reply: (request) => scripts.reply(request) });
  const { uiSurfaces, catalog } = stack.server.services;
  catalog.remember(bookTable, 'programmatic');
  uiSurfaces.register({
    source: 'extension:example',
    panels: () => PANELS,
    tool: (name) => (name === bookTable.name ? bookTable : undefined),
  });
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

async function send(text: string): Promise<void> {
  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-input').press('Enter');
}

const lastAnswer = () => page.locator('[data-role="assistant"]').last();

describe('extension panels', () => {
  it('draws an A2UI basic-catalog surface as a right-column tab, and its button runs the declared tool', async () => {
    await openWorkbenchTab(page, 'Booking');
    const panel = page.getByTestId('ui-panel');
    await panel.getByText('Book a table').waitFor({ timeout: STEP_TIMEOUT });
    await panel.getByLabel('Name').fill('Ada');
    await panel.getByRole('radio', { name: 'Four' }).check();
    await panel.getByRole('checkbox', { name: 'Terrace' }).check();
    expect(await panel.getByRole('link', { name: 'Menu' }).getAttribute('href')).toBe(
      'https://example.com/menu',
    );
    await panel.getByRole('button', { name: 'Book' }).click();
    await panel.getByText('Booked a table for Ada.').waitFor({ timeout: STEP_TIMEOUT });
    expect(booked).toEqual([{ name: 'Ada', seats: ['4'] }]);
    await page.screenshot({ path: join(SCREENSHOTS, 'ui-panel.png') });
  });

  it('draws an A2UI list template with formatted values, tabs as sections, and placeholders for media and icons', async () => {
    await openWorkbenchTab(page, 'Reading');
    const panel = page.getByTestId('ui-panel');
    await panel.getByText('Winter reading').waitFor({ timeout: STEP_TIMEOUT });
    expect(await panel.getByText('Ice (1967)').count()).toBe(1);
    expect(await panel.getByText('€9.00').count()).toBe(1);
    const placeholders = await panel
      .getByTestId('ui-unsupported')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-component')));
    expect(placeholders).toEqual(['Icon', 'Image', 'Image', 'Video']);
    expect(await panel.locator('img, video, iframe').count()).toBe(0);
  });

  it('shows a broken panel as "could not be drawn" while the other tabs and the conversation keep working', async () => {
    await openWorkbenchTab(page, 'Broken');
    const box = page.getByTestId('ui-could-not-render');
    await box.waitFor({ timeout: STEP_TIMEOUT });
    expect(await box.textContent()).toContain('version: must be 1');
    await openWorkbenchTab(page, 'Booking');
    await page.getByTestId('ui-panel').getByText('Book a table').waitFor({ timeout: STEP_TIMEOUT });
    await send('hello after the broken panel');
    await expect
      .poll(() => lastAnswer().textContent(), { timeout: STEP_TIMEOUT })
      .toContain('Echo: hello after the broken panel');
  });
});

describe('cards in the conversation', () => {
  it('draws a card a tool posted: values, a chart and sanitized Markdown', async () => {
    await send('Summarise my week');
    await expect
      .poll(() => lastAnswer().textContent(), { timeout: STEP_TIMEOUT })
      .toContain('The card above sums up your week.');
    const card = lastAnswer().getByTestId('card-part');
    await card.getByText('Busiest day').waitFor({ timeout: STEP_TIMEOUT });
    expect(await card.locator('rect.ui-chart-bar').count()).toBe(5);
    expect(await card.locator('strong').textContent()).toBe('over 5 h');
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'ui-card.png') });
  });

  it(
    'a form card shows the server-side check of a wrong value, then takes a value that fits',
    { timeout: 60_000 },
    async () => {
      await send('File a ticket');
      const card = page.getByTestId('hitl-card').last();
      await card.getByLabel('Ticket').waitFor({ timeout: STEP_TIMEOUT });
      await card.getByLabel('Ticket').fill('abc');
      await card.getByRole('button', { name: 'Submit' }).click();
      await expect.poll(() => card.textContent(), { timeout: STEP_TIMEOUT }).toContain('a key like ABC-12');
      await page.screenshot({ path: join(SCREENSHOTS, 'ui-form-card.png') });
      await card.getByLabel('Ticket').fill('ABC-12');
      await card.getByRole('checkbox', { name: 'Urgent' }).check();
      await card.getByRole('button', { name: 'Submit' }).click();
      await expect
        .poll(() => lastAnswer().textContent(), { timeout: STEP_TIMEOUT })
        .toContain('Filed under the ticket you gave.');
      // The model was told the values the server accepted.
      const told = stack.fake.requests.map((request) => JSON.stringify(request.body)).join('\n');
      expect(told).toContain('The user filled in the form: {\\"ticket\\":\\"ABC-12\\",\\"urgent\\":true}');
    },
  );
});
