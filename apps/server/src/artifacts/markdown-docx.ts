import type { Paragraph as ParagraphType, TextRun as TextRunType } from 'docx';

/** The media type of a Word document. */
export const DOCX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** `**bold**` and `*italic*` spans of one line as runs; everything else is plain text. */
function runsOf(TextRun: typeof TextRunType, text: string): TextRunType[] {
  const runs: TextRunType[] = [];
  const pattern = /\*\*([^*]+)\*\*|\*([^*]+)\*/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index;
    if (at > last) runs.push(new TextRun(text.slice(last, at)));
    if (match[1] !== undefined) runs.push(new TextRun({ text: match[1], bold: true }));
    else runs.push(new TextRun({ text: match[2] ?? '', italics: true }));
    last = at + match[0].length;
  }
  if (last < text.length) runs.push(new TextRun(text.slice(last)));
  return runs;
}

/**
 * A Word document written from Markdown (a filled document template, spec §4.6 `templates/`):
 * headings, paragraphs (lines joined until a blank line), `-`/`*` and numbered list items, bold
 * and italic spans. What Word has no simple equivalent for (tables, code fences) stays as text.
 *
 * @example
 * const bytes = await markdownToDocx('# Trip to Oslo\n\nPack a **warm** coat.', 'Trip to Oslo');
 */
export async function markdownToDocx(markdown: string, title: string): Promise<Uint8Array> {
  // Loaded on first use, as mammoth is: the writer is not on the server's start-up path (decision 0025).
  const { Document, HeadingLevel, Packer, Paragraph, TextRun } = await import('docx');
  const headings = [
    HeadingLevel.HEADING_1,
    HeadingLevel.HEADING_2,
    HeadingLevel.HEADING_3,
    HeadingLevel.HEADING_4,
    HeadingLevel.HEADING_5,
    HeadingLevel.HEADING_6,
  ] as const;
  const runs = (text: string): TextRunType[] => runsOf(TextRun, text);
  const paragraphs: ParagraphType[] = [];
  let pending: string[] = [];
  const flush = (): void => {
    if (pending.length > 0) paragraphs.push(new Paragraph({ children: runs(pending.join(' ')) }));
    pending = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    const trimmed = line.trim();
    const heading = /^(#{1,6})\s+(.*)$/.exec(trimmed);
    const bullet = /^[-*+]\s+(.*)$/.exec(trimmed);
    const numbered = /^(\d+)[.)]\s+(.*)$/.exec(trimmed);
    if (trimmed === '') flush();
    else if (heading !== null) {
      flush();
      const level = headings[(heading[1]?.length ?? 1) - 1] ?? HeadingLevel.HEADING_1;
      paragraphs.push(new Paragraph({ children: runs(heading[2] ?? ''), heading: level }));
    } else if (bullet !== null) {
      flush();
      paragraphs.push(new Paragraph({ children: runs(bullet[1] ?? ''), bullet: { level: 0 } }));
    } else if (numbered !== null) {
      flush();
      // Word numbering needs a numbering definition; the number written out reads the same.
      paragraphs.push(new Paragraph({ children: runs(`${numbered[1]}. ${numbered[2] ?? ''}`) }));
    } else pending.push(trimmed);
  }
  flush();
  const document = new Document({ title, creator: 'YouYou', sections: [{ children: paragraphs }] });
  return new Uint8Array(await Packer.toBuffer(document));
}
