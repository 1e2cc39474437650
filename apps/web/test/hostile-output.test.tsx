// @vitest-environment happy-dom
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from '../src/markdown/index.ts';
import { isActiveAttribute } from '../src/markdown/active-content.ts';
import { cleanSvg, sanitizeSvg } from '../src/markdown/sanitize-svg.ts';

afterEach(cleanup);

/** Every attribute in the subtree that could run script: an `on*` handler or an active URL. */
function activeAttributes(root: Element): string[] {
  const found: string[] = [];
  for (const element of [root, ...root.querySelectorAll('*')]) {
    for (const attribute of element.attributes) {
      if (/^on/i.test(attribute.name) || /^\s*(javascript|vbscript|data:text\/html)/i.test(attribute.value)) {
        found.push(`<${element.tagName.toLowerCase()} ${attribute.name}="${attribute.value}">`);
      }
    }
  }
  return found;
}

const MARKDOWN_PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)><circle r=5 /></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<a href="javascript:alert(1)" onclick="alert(1)">raw</a>',
  '<details open ontoggle=alert(1)>x</details>',
  '[plain](javascript:alert(1))',
  '[mixed case](JaVaScRiPt:alert(1))',
  '[entity](&#106;avascript:alert(1))',
  '[tab](java\tscript:alert(1))',
  '[vb](vbscript:msgbox(1))',
  '[html](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![image](javascript:alert(1))',
  '<javascript:alert(1)>',
  '[ref][evil]\n\n[evil]: javascript:alert(1)',
];

describe('model output never carries script into the DOM', () => {
  it.each(MARKDOWN_PAYLOADS)('Markdown payload %j leaves no script, handler or active URL', (payload) => {
    const { container } = render(<Markdown text={`before\n\n${payload}\n\nafter`} />);
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('svg')).toBeNull();
    expect(activeAttributes(container)).toEqual([]);
    expect(container.textContent).toContain('after');
  });

  it('KaTeX \\href, \\url and \\htmlData from the model stay inert', async () => {
    const { container } = render(
      <Markdown
        text={
          'Math: $\\href{javascript:alert(1)}{click}$ and $\\url{javascript:alert(2)}$ and $\\htmlData{onclick=alert(3)}{x}$ and $x^2$'
        }
      />,
    );
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull(), { timeout: 10_000 });
    expect(container.querySelector('a')).toBeNull();
    expect(container.querySelector('[data-onclick]')).toBeNull();
    expect(activeAttributes(container)).toEqual([]);
  });

  // happy-dom runs DOMPurify unreliably, so this checks our own pass; the browser test
  // (e2e/hostile-output.test.ts) checks both passes on real mermaid output in Chromium.
  it('a mermaid SVG loses scripts, handlers, foreignObject HTML, links and javascript: titles', () => {
    // What a diagram with hostile labels and click directives can come out of a renderer as.
    const hostile = [
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">',
      '<style>.node{fill:#eee}</style>',
      '<script>alert(2)</script>',
      '<g class="node" id="A" onclick="alert(3)" title="javascript:alert(12)">',
      '<a xlink:href="javascript:alert(4)" href="javascript:alert(5)"><rect width="10" height="10"/></a>',
      '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(6)"/></div></foreignObject>',
      '<text>Label</text>',
      '<animate attributeName="href" to="javascript:alert(7)"/>',
      '<set attributeName="onmouseover" to="alert(8)"/>',
      '</g></svg>',
    ].join('');
    const cleaned = cleanSvg(hostile);
    const host = new DOMParser().parseFromString(cleaned, 'image/svg+xml').documentElement;
    expect(host.querySelector('text')?.textContent).toBe('Label');
    expect(host.querySelector('rect')).not.toBeNull();
    expect(host.querySelector('script, foreignObject, a, img')).toBeNull();
    expect(activeAttributes(host)).toEqual([]);
    expect(cleaned).not.toContain('javascript:');
    expect(cleaned).not.toContain('alert');
  });

  it('an SVG that does not parse is refused (the diagram source shows instead)', () => {
    expect(() => sanitizeSvg('<svg><g></svg>')).toThrow(/well-formed/);
    expect(() => sanitizeSvg('<div onclick="x">not svg</div>')).toThrow(/well-formed/);
  });

  it('the attribute check knows handlers and active schemes, and leaves ordinary values alone', () => {
    expect(isActiveAttribute('onmouseover', 'x')).toBe(true);
    expect(isActiveAttribute('href', '\u0001 javascript:alert(1)')).toBe(true);
    expect(isActiveAttribute('title', 'javascript:alert(12)')).toBe(true);
    expect(isActiveAttribute('href', 'https://example.com/javascript:thing')).toBe(false);
    expect(isActiveAttribute('className', 'online')).toBe(false);
  });
});
