import type { FileBlock } from '@youyou/agent';

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/**
 * A file block as the text a model reads: its name, path and type on an opening tag, then its
 * text. A binary file without text becomes a one-line note, for models that cannot read it.
 *
 * @example
 * fileAsText({ type: 'file', path: '/w/a.md', name: 'a.md', mediaType: 'text/markdown', text: '# A' });
 * // '<file name="a.md" path="/w/a.md" media-type="text/markdown">\n# A\n</file>'
 */
export function fileAsText(block: FileBlock): string {
  const attributes =
    `name="${escapeAttribute(block.name)}" path="${escapeAttribute(block.path)}" ` +
    `media-type="${escapeAttribute(block.mediaType)}"`;
  if (block.text !== undefined) return `<file ${attributes}>\n${block.text}\n</file>`;
  return `<file ${attributes} omitted="binary content this model cannot read" />`;
}
