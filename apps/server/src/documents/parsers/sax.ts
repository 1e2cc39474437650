import { SaxesParser } from 'saxes';
import { ParseFailedError } from '../document-builder.ts';

/** `w:p` → `p`: the tag names OOXML parts use carry a namespace prefix. */
function local(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** What `streamXml` calls back with: local tag names, the attributes as written (prefixed). */
export interface XmlHandlers {
  open(name: string, attributes: Record<string, string>): void;
  text(text: string): void;
  close(name: string): void;
}

/**
 * Reads one OOXML part with saxes, a streaming XML parser (a DOM is ~20–50× slower on large
 * parts); a part that is not well-formed fails `corrupt`.
 *
 * @example
 * streamXml(text, 'word/document.xml', { open() {}, text() {}, close() {} });
 */
export function streamXml(text: string, part: string, handlers: XmlHandlers): void {
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => handlers.open(local(tag.name), tag.attributes as Record<string, string>));
  parser.on('text', handlers.text);
  parser.on('cdata', handlers.text);
  parser.on('closetag', (tag) => handlers.close(local(tag.name)));
  parser.on('error', (error) => {
    throw new ParseFailedError('corrupt', `The part ${part} is not well-formed XML: ${error.message}`);
  });
  parser.write(text).close();
}
