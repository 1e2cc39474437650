import type { Element, Root } from 'hast';
import { describe, expect, it } from 'vitest';
import { highlightHere } from '../src/markdown/highlight-core.ts';
import { highlightToHast } from '../src/markdown/highlighter.ts';

function tokenStyles(root: Root): string[] {
  const styles: string[] = [];
  const visit = (node: Root | Element): void => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'span' && typeof child.properties['style'] === 'string')
        styles.push(child.properties['style']);
      visit(child);
    }
  };
  visit(root);
  return styles;
}

describe('code highlighting', () => {
  it('colours a TypeScript block with both themes as CSS variables', async () => {
    const root = await highlightHere('const a: number = 1;', 'ts');
    expect(root).toBeDefined();
    const styles = tokenStyles(root as Root);
    expect(styles.some((style) => style.includes('--shiki-light') && style.includes('--shiki-dark'))).toBe(
      true,
    );
  });

  it('leaves a block in a language shiki does not know plain', async () => {
    expect(await highlightHere('x', 'no-such-language')).toBeUndefined();
  });

  it('leaves blocks plain where there are no web workers, rather than highlighting on the main thread', async () => {
    expect(typeof Worker).toBe('undefined');
    expect(await highlightToHast('const a = 1;', 'ts')).toBeUndefined();
  });
});
