// The text LangChain's document loaders extract, by the same calls on the same libraries:
// `@langchain/community` 1.1.29's DocxLoader (mammoth.extractRawText), PDFLoader (pdf-parse's
// bundled pdf.js v1.10.100, getTextContent per page, a newline where the y position changes) and
// PPTXLoader (officeparser's parseOffice(…).toText()). The loaders' parse() bodies are copied below
// with their source lines named; the package itself cannot be installed in this workspace: its
// non-optional peer @browserbasehq/stagehand requires zod 3, and the workspace is on zod 4 (npm's
// resolver refuses; --legacy-peer-deps would break `npm ci` for everyone).
import mammoth from 'mammoth';
import { parseOffice } from 'officeparser';

/** One loader: the file's bytes in, the text of its LangChain `Document`s out (joined). */
export type LangChainLoader = (bytes: Uint8Array) => Promise<string>;

/** DocxLoader.parseDocx (dist/document_loaders/fs/docx.js). */
const docx: LangChainLoader = async (bytes) => {
  const result = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
  return result.value;
};

interface PdfJsV1 {
  getDocument(options: Record<string, unknown>): { promise: Promise<PdfDocumentV1> };
}
interface PdfDocumentV1 {
  numPages: number;
  getMetadata(): Promise<unknown>;
  getPage(
    number: number,
  ): Promise<{ getTextContent(): Promise<{ items: { str?: string; transform: number[] }[] }> }>;
}

let pdfjs: Promise<PdfJsV1> | undefined;

/** PDFLoader.parse with its default pdf.js (dist/document_loaders/fs/pdf.js, PDF_PARSE_V1_IMPORT_PATH). */
const pdf: LangChainLoader = async (bytes) => {
  // @ts-expect-error -- pdf-parse ships this bundled pdf.js without types; LangChain imports the same path.
  pdfjs ??= import('pdf-parse/lib/pdf.js/v1.10.100/build/pdf.js') as Promise<PdfJsV1>;
  const { getDocument } = await pdfjs;
  const document = await getDocument({
    data: new Uint8Array(bytes),
    useWorkerFetch: false,
    isEvalSupported: false,
    useSystemFonts: true,
  }).promise;
  await document.getMetadata().catch(() => null);
  const pages: string[] = [];
  for (let index = 1; index <= document.numPages; index += 1) {
    const content = await (await document.getPage(index)).getTextContent();
    if (content.items.length === 0) continue;
    let lastY: number | undefined;
    const textItems: string[] = [];
    for (const item of content.items)
      if ('str' in item) {
        if (lastY === item.transform[5] || !lastY) textItems.push(item.str ?? '');
        else textItems.push(`\n${item.str ?? ''}`);
        lastY = item.transform[5];
      }
    pages.push(textItems.join(''));
  }
  return pages.join('\n');
};

/** PPTXLoader.parse (dist/document_loaders/fs/pptx.js). */
const pptx: LangChainLoader = async (bytes) => {
  const parsed = await parseOffice(Buffer.from(bytes), { outputErrorToConsole: false });
  return parsed.toText();
};

/** The formats LangChain has a loader for, and the loader. */
export const LANGCHAIN_LOADERS: Readonly<Partial<Record<string, LangChainLoader>>> = { docx, pdf, pptx };
