import type { ParserProvider, ParserRef } from '@youyou/contracts';
import mammoth from 'mammoth';
import { finishDocument, parseSafely } from '../document-builder.ts';
import { entryText } from '../safe-zip.ts';
import { coreProperties, descendants, parseXml } from '../xml.ts';
import { htmlToBlocks } from './html.ts';
import { openOoxml } from './ooxml.ts';

const REF: ParserRef = { id: 'builtin-docx', version: '1.0.0+mammoth.1', source: 'builtin' };

/** Comments become notes after the text (mammoth leaves them out unless a style map asks). */
const STYLE_MAP = ['comment-reference => sup'];

/**
 * Word documents: the zip is inflated once under the expanded-size cap (decompression bombs),
 * then mammoth turns the document into semantic HTML (heading styles → levels, numbering →
 * lists, tables, footnotes, endnotes, comments), read into blocks by the HTML walker. Images
 * become references with their alt text, never data.
 */
export const docxParser: ParserProvider = {
  ...REF,
  source: 'builtin',
  formats: ['docx'],
  parse: (input, context) =>
    parseSafely(REF, async () => {
      const startedAt = Date.now();
      const entries = openOoxml(input.bytes, 'docx', context.limits);
      const core = coreProperties(entryText(entries, 'docProps/core.xml'));
      const app = entryText(entries, 'docProps/app.xml');
      const pagesText =
        app === undefined
          ? undefined
          : descendants(parseXml(app, 'docProps/app.xml'), 'Pages')[0]?.textContent;
      const pages = pagesText === undefined || pagesText === null ? null : Number.parseInt(pagesText, 10);
      const result = await mammoth.convertToHtml(
        { buffer: Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength) },
        {
          styleMap: STYLE_MAP,
          externalFileAccess: false,
          convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
        },
      );
      const { blocks } = htmlToBlocks(result.value);
      const warnings = result.messages
        .filter(
          (message) =>
            message.type === 'warning' && !message.message.startsWith('Unrecognised paragraph style'),
        )
        .slice(0, 20)
        .map((message) => message.message);
      return finishDocument({
        format: 'docx',
        parser: REF,
        blocks: blocks.map((block) =>
          block.type === 'image_ref'
            ? { ...block, target: block.target === '' ? null : block.target }
            : block,
        ),
        facts: { title: core.title, author: core.author, pages: Number.isFinite(pages) ? pages : null },
        startedAt,
        maxBlocks: context.limits.max_blocks,
        warnings,
      });
    }),
};
