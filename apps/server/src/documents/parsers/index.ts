import type { ParserProvider } from '@youyou/contracts';
import { csvParser } from './csv.ts';
import { docxParser } from './docx.ts';
import { htmlParser } from './html.ts';
import { markdownParser } from './markdown.ts';
import { pdfParser } from './pdf.ts';
import { pptxParser } from './pptx.ts';
import { textParser } from './text.ts';
import { xlsxParser } from './xlsx.ts';

export { HTTP_SERVICE_PARSER_ID, httpServiceParser } from './http-service.ts';
export { htmlToBlocks } from './html.ts';

/** The built-in parsers, one per format (spec §4.11 tier 1). */
export const BUILTIN_PARSERS: readonly ParserProvider[] = [
  markdownParser,
  textParser,
  htmlParser,
  docxParser,
  pptxParser,
  xlsxParser,
  csvParser,
  pdfParser,
];
