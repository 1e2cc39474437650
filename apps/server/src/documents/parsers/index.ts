import type { DocumentFormat, ParserProvider } from '@youyou/contracts';
import { ParseFailedError, failure } from '../document-builder.ts';
import { checkBytes } from './sniff.ts';

export { HTTP_SERVICE_PARSER_ID, httpServiceParser } from './http-service.ts';

/**
 * A built-in parser whose module (and the library it wraps: pdf.js alone is 2 MB) loads with the
 * first file of its format. A workbench that never reads a PDF never pays for pdf.js, and the
 * server idles in less memory. Bytes that cannot be the format (none, or a PNG named `.docx`)
 * fail before the module loads (`checkBytes`). The registry lists it from this description; the test
 * "built-in parsers describe themselves as their modules do" keeps the two the same.
 */
function lazyParser(
  description: Pick<ParserProvider, 'id' | 'version' | 'formats'>,
  load: () => Promise<ParserProvider>,
): ParserProvider {
  let loaded: Promise<ParserProvider> | undefined;
  return {
    ...description,
    source: 'builtin',
    async parse(input, context) {
      try {
        checkBytes(input.bytes, description.formats[0] as DocumentFormat, input.name);
      } catch (error) {
        if (!(error instanceof ParseFailedError)) throw error;
        const parser = { id: description.id, version: description.version, source: 'builtin' as const };
        return failure(parser, error.reason, error.message, error.details);
      }
      loaded ??= load();
      return (await loaded).parse(input, context);
    },
  };
}

const builtin = (id: string, version: string, format: DocumentFormat) => ({ id, version, formats: [format] });

/** The built-in parsers, one per format (spec §4.11 tier 1). */
export const BUILTIN_PARSERS: readonly ParserProvider[] = [
  lazyParser(
    builtin('builtin-md', '2.0.0+marked.16', 'md'),
    async () => (await import('./markdown.ts')).markdownParser,
  ),
  lazyParser(builtin('builtin-txt', '1.0.0', 'txt'), async () => (await import('./text.ts')).textParser),
  lazyParser(builtin('builtin-html', '1.0.0', 'html'), async () => (await import('./html.ts')).htmlParser),
  lazyParser(
    builtin('builtin-docx', '2.0.0+saxes.6', 'docx'),
    async () => (await import('./docx.ts')).docxParser,
  ),
  lazyParser(builtin('builtin-pptx', '1.1.0', 'pptx'), async () => (await import('./pptx.ts')).pptxParser),
  lazyParser(
    builtin('builtin-xlsx', '1.2.0+saxes.6+numfmt.4', 'xlsx'),
    async () => (await import('./xlsx.ts')).xlsxParser,
  ),
  lazyParser(
    builtin('builtin-csv', '1.0.0+papaparse.5', 'csv'),
    async () => (await import('./csv.ts')).csvParser,
  ),
  lazyParser(
    builtin('builtin-pdf', '1.0.0+pdfjs.5', 'pdf'),
    async () => (await import('./pdf.ts')).pdfParser,
  ),
];
