import {
  blockToText,
  type BlockLocation,
  type DocumentBlock,
  type DocumentView,
  type ParsedDocument,
  type ParseFailureReason,
} from '@youyou/contracts';

/** What to tell the model (and through it the user) to do about each failure. */
const WHAT_TO_DO: Record<ParseFailureReason, string> = {
  no_text_layer:
    'It is a scan or image-only PDF. Ask the user for a version with selectable text, or to enable the external parsing service (OCR) for this project.',
  encrypted: 'It is protected with a password. Ask the user to remove the password and upload it again.',
  corrupt: 'The file is damaged. Ask the user to re-export or re-download it and upload it again.',
  too_large: 'It is over the size limits. Ask the user to split it or upload the part that matters.',
  wrong_type: 'Its contents are not what its name says. Ask the user to check the file and its extension.',
  empty: 'It holds no text. Ask the user whether this is the right file.',
  unsupported:
    "No parser in this project's policy reads this format. Ask the user to convert it (e.g. to PDF or DOCX).",
  timeout:
    'Parsing ran out of time. Ask the user to retry it from the attachment, or to upload a smaller file.',
  service_error: 'The external parsing service failed. The user can retry it from the attachment.',
};

/** Plain words for each reason class. */
export const FAILURE_SUMMARY: Record<ParseFailureReason, string> = {
  no_text_layer: 'it has no text layer',
  encrypted: 'it is encrypted',
  corrupt: 'it is corrupt',
  too_large: 'it is too large',
  wrong_type: 'it is not the type its name says',
  empty: 'it is empty',
  unsupported: 'its format is not supported',
  timeout: 'parsing timed out',
  service_error: 'the parsing service failed',
};

/** Above this many characters a document goes in as an excerpt plus the read_document hint. */
export const DEFAULT_DOCUMENT_CHARS = 24_000;

function attributeValue(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

function marker(location: BlockLocation): string | undefined {
  if (location.page !== undefined) return `[page ${location.page}]`;
  if (location.slide !== undefined) return `[slide ${location.slide}]`;
  if (location.sheet !== undefined) return `[sheet ${location.sheet}]`;
  return undefined;
}

/** Blocks as text with a `[page N]` / `[slide N]` / `[sheet S]` marker where the location changes. */
function blocksWithMarkers(
  blocks: readonly DocumentBlock[],
  budget: number,
): { text: string; shown: number } {
  const parts: string[] = [];
  let used = 0;
  let last: string | undefined;
  let shown = 0;
  for (const block of blocks) {
    const text = blockToText(block);
    if (text === '') {
      shown++;
      continue;
    }
    const here = marker(block.location);
    const piece = here !== undefined && here !== last ? `${here}\n${text}` : text;
    if (used + piece.length > budget && shown > 0) break;
    parts.push(piece.length > budget ? piece.slice(0, budget) : piece);
    used += piece.length + 2;
    last = here ?? last;
    shown++;
    if (used >= budget) break;
  }
  return { text: parts.join('\n\n'), shown };
}

/**
 * A document as the model reads it (spec §4.10 current turn, §4.11): the parsed text inside a
 * `<document>` tag with its id, name, format and page count; over `maxChars`, the first blocks and
 * a note to use `read_document` with the id for the rest; for a failure, a plain note of the
 * reason and what to do — never the raw bytes; while it is still being parsed, a note saying so.
 *
 * @example
 * documentForModel(view, parsed); // '<document id="d1" name="q3.docx" format="docx">\n# Q3\n…</document>'
 */
export function documentForModel(
  view: DocumentView,
  parsed: ParsedDocument | undefined,
  options: { maxChars?: number } = {},
): string {
  const name = attributeValue(view.name);
  const id = attributeValue(view.id);
  if (view.status === 'failed') {
    const reason = view.failure?.reason ?? 'corrupt';
    return [
      `<document id="${id}" name="${name}" status="failed" reason="${reason}">`,
      `The attached file "${view.name}" could not be read: ${FAILURE_SUMMARY[reason]}. ${view.failure?.message ?? ''}`.trim(),
      WHAT_TO_DO[reason],
      'Its content is not available to you: do not guess what it says; tell the user it could not be read.',
      '</document>',
    ].join('\n');
  }
  if (parsed === undefined) {
    return [
      `<document id="${id}" name="${name}" status="${view.status}">`,
      `The attached file "${view.name}" is still being parsed; its content is not available yet. Tell the user, or read it later with read_document id "${view.id}".`,
      '</document>',
    ].join('\n');
  }
  const maxChars = options.maxChars ?? DEFAULT_DOCUMENT_CHARS;
  const counts = [
    parsed.metadata.pages === null ? '' : ` pages="${parsed.metadata.pages}"`,
    parsed.metadata.slides === null ? '' : ` slides="${parsed.metadata.slides}"`,
    parsed.metadata.sheets === null ? '' : ` sheets="${attributeValue(parsed.metadata.sheets.join(', '))}"`,
  ].join('');
  const open = `<document id="${id}" name="${name}" format="${parsed.format}"${counts}>`;
  const { text, shown } = blocksWithMarkers(parsed.blocks, maxChars);
  const lines = [open, text];
  if (shown < parsed.blocks.length) {
    lines.push(
      `[Excerpt: blocks 0–${shown - 1} of ${parsed.blocks.length} are shown (${parsed.metadata.char_count} characters in all). Use read_document with id "${view.id}" and a block range (from ${shown}) or a page to read the rest.]`,
    );
  }
  const warnings = parsed.provenance.warnings.filter((warning) => warning.length > 0).slice(0, 5);
  if (warnings.length > 0) lines.push(`[Parser notes: ${warnings.join(' ')}]`);
  lines.push('</document>');
  return lines.join('\n');
}
