// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  extendMarkdownBlocks,
  Markdown,
  needsMath,
  splitMarkdownBlocks,
  type MarkdownSplit,
} from '../src/markdown/index.ts';

afterEach(cleanup);

describe('Markdown renderer: model output is sanitized', () => {
  it('drops raw HTML, scripts and event handlers', () => {
    const { container } = render(
      <Markdown
        text={
          'Hello <script>alert(1)</script> <img src=x onerror="alert(2)"> <b onclick="x()">bold</b>\n\n<iframe src="https://evil"></iframe>'
        }
      />,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('iframe')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(container.querySelector('[onclick]')).toBeNull();
    expect(container.textContent).toContain('Hello');
  });

  it('removes javascript: links and opens others safely', () => {
    const { container } = render(
      <Markdown text={'[bad](javascript:alert(1)) [good](https://example.com)'} />,
    );
    const links = [...container.querySelectorAll('a')];
    expect(links.some((link) => (link.getAttribute('href') ?? '').startsWith('javascript'))).toBe(false);
    const good = links.find((link) => link.textContent === 'good');
    expect(good?.getAttribute('href')).toBe('https://example.com');
    expect(good?.getAttribute('rel')).toContain('noopener');
    expect(good?.getAttribute('target')).toBe('_blank');
  });

  it('renders GFM tables, task lists and strikethrough', () => {
    const { container } = render(
      <Markdown text={'| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n\n~~old~~'} />,
    );
    expect(container.querySelectorAll('table td')).toHaveLength(2);
    expect(container.querySelectorAll('input[type="checkbox"]')).toHaveLength(2);
    expect(container.querySelector('del')?.textContent).toBe('old');
  });

  it('draws fenced code as a code block with a copy button and its language', () => {
    const { container, getByRole } = render(<Markdown text={'```ts\nconst a = 1;\n```'} />);
    expect(container.querySelector('.code-block')?.getAttribute('data-language')).toBe('ts');
    expect(container.querySelector('pre code')?.textContent).toBe('const a = 1;');
    expect(getByRole('button', { name: 'Copy code' })).toBeTruthy();
  });

  it('keeps inline code inline', () => {
    const { container } = render(<Markdown text={'Use `npm test` here.'} />);
    expect(container.querySelector('.code-block')).toBeNull();
    expect(container.querySelector('p code')?.textContent).toBe('npm test');
  });
});

describe('markdown blocks', () => {
  it('splits at blank lines outside fences and math', () => {
    expect(splitMarkdownBlocks('# T\n\ntext\n\n```\na\n\nb\n```\n\n$$\nx\n\ny\n$$')).toEqual([
      '# T',
      'text',
      '```\na\n\nb\n```',
      '$$\nx\n\ny\n$$',
    ]);
  });

  it('keeps a loose list in one block', () => {
    expect(splitMarkdownBlocks('- a\n\n- b\n\nafter')).toEqual(['- a\n\n- b', 'after']);
  });

  it('a streamed reply, split delta by delta from its unfinished tail, gives the blocks of the whole text at every step', () => {
    const text =
      '# Title\n\nA paragraph with `code`.\n\n- a\n\n- b\n  continued\n\n1. one\n\n2. two\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n$$\nx\n\ny\n$$\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nThe end.';
    for (const size of [1, 3, 7]) {
      let split: MarkdownSplit | undefined;
      for (let end = 0; end <= text.length; end += size) {
        split = extendMarkdownBlocks(split, text.slice(0, end));
        expect(split.blocks).toEqual(splitMarkdownBlocks(text.slice(0, end)));
      }
    }
  });

  it('splits an edited text (not an extension of the last one) from the start', () => {
    const first = extendMarkdownBlocks(undefined, 'A\n\nB\n\nC');
    expect(extendMarkdownBlocks(first, 'X\n\nB').blocks).toEqual(['X', 'B']);
  });

  it('detects math only when there is some', () => {
    expect(needsMath('costs $5 and $10')).toBe(false);
    expect(needsMath('Euler: $e^{i\\pi}+1=0$')).toBe(true);
    expect(needsMath('$$\\int x$$')).toBe(true);
    expect(needsMath('\\(a+b\\)')).toBe(true);
  });
});

describe('a long reply', () => {
  const paragraphs = (count: number) =>
    Array.from({ length: count }, (_, index) => `Paragraph ${String(index)} with **bold**.`).join('\n\n');

  it('groups its finished blocks in chunks the browser can skip off screen, the same text in the same order', () => {
    const text = `${paragraphs(100)}\n\n- a list\n- at the end`;
    const { container } = render(<Markdown text={text} />);
    const chunks = container.querySelectorAll('.markdown > .markdown-chunk');
    expect(chunks.length).toBe(3);
    expect(chunks[0]?.querySelectorAll('p').length).toBe(32);
    // The last block stays outside any chunk (the streaming cursor and growth are there).
    expect(container.querySelector('.markdown > :last-child')?.tagName).toBe('UL');
    const rendered = [...container.querySelectorAll('p')].map((paragraph) => paragraph.textContent);
    expect(rendered).toEqual(
      Array.from({ length: 100 }, (_, index) => `Paragraph ${String(index)} with bold.`),
    );
  });

  it('keeps a short reply’s blocks flat', () => {
    const { container } = render(<Markdown text={paragraphs(10)} />);
    expect(container.querySelector('.markdown-chunk')).toBeNull();
    expect(container.querySelectorAll('.markdown > p').length).toBe(10);
  });

  it('does not redraw a finished chunk while the reply streams on', () => {
    const text = paragraphs(70);
    const { container, rerender } = render(<Markdown text={text} streaming />);
    const first = container.querySelector('.markdown-chunk p');
    rerender(<Markdown text={`${text}\n\nAnd more`} streaming />);
    rerender(<Markdown text={`${text}\n\nAnd more text still`} streaming />);
    expect(container.querySelector('.markdown-chunk p')).toBe(first);
    expect(container.textContent).toContain('And more text still');
  });

  it('draws another text at the same length with its own blocks', () => {
    const { container, rerender } = render(<Markdown text={paragraphs(70)} />);
    rerender(<Markdown text={paragraphs(70).replaceAll('Paragraph', 'Section')} />);
    expect(container.querySelector('.markdown-chunk p')?.textContent).toBe('Section 0 with bold.');
  });
});
