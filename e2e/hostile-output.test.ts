// Model output that tries to run script, drawn by the real UI in Chromium with the page's CSP
// switched off: whatever the renderer lets through would run, so nothing may get through.
import type { FakeReply, RecordedRequest } from '@youyou/testing';
import { lastUserText } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './support/browser.ts';
import { startStack, type Stack } from './support/stack.ts';
import { STEP_TIMEOUT } from './support/workbench-session.ts';

const HOSTILE_MARKDOWN = [
  'Raw HTML: <img src=x onerror="window.__xss(1)"> <svg onload="window.__xss(2)"></svg> <script>window.__xss(3)</script>',
  '<a href="javascript:window.__xss(4)" onclick="window.__xss(5)">raw link</a> <details open ontoggle="window.__xss(6)">d</details>',
  '',
  '[md link](javascript:window.__xss(7)) [entity](&#106;avascript:window.__xss(8)) ![img](javascript:window.__xss(9)) <javascript:window.__xss(10)>',
  '',
  '[ref][evil]',
  '',
  '[evil]: javascript:window.__xss(11)',
  '',
  'KaTeX: $\\href{javascript:window.__xss(12)}{click me}$ and $\\url{javascript:window.__xss(13)}$ and $x^2$',
  '',
  '```mermaid',
  'graph TD',
  '  A["<img src=x onerror=window.__xss(14)>label A"] --> B["<a href=javascript:window.__xss(15)>label B</a>"]',
  '  click A "javascript:window.__xss(16)" "javascript:window.__xss(17)"',
  '  click B call __xss(18)',
  '```',
  '',
  '```mermaid',
  '%%{init: {"securityLevel": "loose", "flowchart": {"htmlLabels": true}}}%%',
  'graph LR',
  '  C[label C] -->|"<img src=x onerror=window.__xss(19)>"| D[label D]',
  '  click C href "javascript:window.__xss(20)" "javascript:window.__xss(21)"',
  '```',
  '',
  '```mermaid',
  'sequenceDiagram',
  '  participant E as label E',
  '  links E: {"Docs": "javascript:window.__xss(22)"}',
  '  link E: Repo @ javascript:window.__xss(23)',
  '  E->>E: <img src=x onerror=window.__xss(24)>',
  '```',
  '',
  '```mermaid',
  'classDiagram',
  '  class F',
  '  click F href "javascript:window.__xss(25)" "javascript:window.__xss(26)"',
  '```',
  '',
  'the end',
].join('\n');

function reply(request: RecordedRequest): FakeReply {
  const text = lastUserText(request.body);
  if (text.includes('hostile')) return { type: 'stream', steps: [{ type: 'text', text: HOSTILE_MARKDOWN }] };
  if (text.includes('cut off'))
    return { type: 'stream', steps: [{ type: 'text', text: 'The first half of' }], finishReason: 'length' };
  if (text.includes('filtered'))
    return { type: 'stream', steps: [{ type: 'text', text: 'Here is' }], finishReason: 'content_filter' };
  if (text.includes('refuse'))
    return { type: 'stream', steps: [{ type: 'refusal', text: 'I’m sorry, I can’t help with that.' }] };
  return { type: 'stream', steps: [{ type: 'text', text: 'ok' }] };
}

describe('hostile model output in a browser without CSP', () => {
  let stack: Stack;
  let browser: Awaited<ReturnType<typeof openBrowser>>;

  beforeAll(async () => {
    stack = await startStack({ reply });
    browser = await openBrowser({ bypassCSP: true });
    await browser.page.addInitScript(() => {
      const calls: unknown[] = [];
      Object.assign(window, { __xssCalls: calls, __xss: (value: unknown) => calls.push(value) });
      window.alert = (value?: unknown) => void calls.push(`alert ${String(value)}`);
    });
    await browser.page.goto(stack.server.loginUrl);
    await browser.page.getByTestId('composer-input').waitFor({ timeout: STEP_TIMEOUT });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function send(text: string) {
    const page = browser.page;
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await page.getByTestId('composer-input').fill(text);
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.locator('[data-role="assistant"]').last();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: STEP_TIMEOUT }).toBe('complete');
    return answer;
  }

  it('scripts, on* handlers, svg, javascript: links, mermaid labels and click directives and KaTeX \\href never reach the DOM', async () => {
    const answer = await send('show hostile output');
    await answer.locator('.katex').first().waitFor({ timeout: STEP_TIMEOUT });
    // The diagram draws (sanitized) or falls back to its source; either way it settles.
    await answer.locator('.mermaid-diagram svg, .field-error').first().waitFor({ timeout: STEP_TIMEOUT });
    const page = browser.page;
    // Hover and click everything of the model's output that could carry a handler or a link (the
    // message's own buttons open dialogs and regenerate: not model output).
    for (const target of await answer.locator('.markdown').locator('a, g.node, .katex, svg *').all()) {
      await target.hover({ timeout: 1_000, force: true }).catch(() => undefined);
      await target.click({ timeout: 1_000, force: true, noWaitAfter: true }).catch(() => undefined);
    }
    const active = await page.evaluate(() => {
      const found: string[] = [];
      for (const element of document.querySelectorAll('*')) {
        for (const attribute of element.attributes) {
          if (/^on/i.test(attribute.name) || /javascript:|vbscript:/i.test(attribute.value))
            found.push(`<${element.tagName} ${attribute.name}="${attribute.value}">`);
        }
      }
      return found;
    });
    expect(active).toEqual([]);
    expect(await answer.locator('script, iframe, foreignObject, img[src="x"]').count()).toBe(0);
    expect(await answer.locator('.mermaid-diagram a').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xssCalls: unknown[] }).__xssCalls)).toEqual(
      [],
    );
    expect(page.url()).toContain(stack.server.url);
    expect(await answer.textContent()).toContain('the end');
  }, 60_000);

  it.each([
    ['cut off', 'length', 'Cut off at the token limit'],
    ['filtered', 'content_filter', 'Blocked by the provider’s filter'],
    ['refuse', 'refusal', 'The model refused'],
  ])(
    'an answer that was %s says so at its end',
    async (message, reason, notice) => {
      const answer = await send(`please ${message}`);
      expect(await answer.getAttribute('data-finish-reason')).toBe(reason);
      expect(await answer.getByTestId('finish-notice').textContent()).toContain(notice);
      if (reason === 'refusal')
        expect(await answer.getByTestId('refusal').textContent()).toContain(
          'I’m sorry, I can’t help with that.',
        );
    },
    30_000,
  );
});
