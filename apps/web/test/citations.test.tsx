// @vitest-environment happy-dom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mentionQuery, useDocumentViewer } from '../src/knowledge/index.ts';
import { useLayout } from '../src/layout/index.ts';
import { Markdown } from '../src/markdown/index.ts';

afterEach(cleanup);

describe('citations in answers', () => {
  it('a youyou-doc link renders as a citation that opens the document viewer at its block', () => {
    const { container } = render(
      <Markdown text={'Revenue grew [report.pdf, p. 3](youyou-doc:k%201#block-12).'} />,
    );
    const link = container.querySelector('a.citation-link');
    expect(link?.getAttribute('href')).toBe('youyou-doc:k%201#block-12');
    expect(link?.getAttribute('target')).toBeNull();
    fireEvent.click(link as Element);
    expect(useDocumentViewer.getState()).toMatchObject({ documentId: 'k 1', block: 12 });
    expect(useLayout.getState().activeTab).toBe('document');
  });

  it('no link with a script survives; a citation link can only open the viewer', () => {
    const { container } = render(
      <Markdown
        text={
          '[a](youyou-doc:javascript:alert(1)) [b](javascript:youyou-doc:x) [c](youyou-doc:x#block-1"onmouseover=alert(1))'
        }
      />,
    );
    for (const link of container.querySelectorAll('a')) {
      expect(link.getAttribute('href') ?? '').not.toMatch(/^javascript/i);
      expect(link.getAttribute('onmouseover')).toBeNull();
    }
    for (const link of container.querySelectorAll('a.citation-link'))
      expect(link.getAttribute('href')).toMatch(/^youyou-doc:/);
  });
});

describe('the @ picker query', () => {
  it('opens after an @ that starts a word, up to the caret', () => {
    expect(mentionQuery('see @pla', 8)).toEqual({ query: 'pla', start: 4 });
    expect(mentionQuery('@', 1)).toEqual({ query: '', start: 0 });
    expect(mentionQuery('mail me@example.com', 19)).toBeUndefined();
    expect(mentionQuery('see @plan now', 13)).toBeUndefined();
    expect(mentionQuery('看 @合同', 5)).toEqual({ query: '合同', start: 2 });
  });
});
