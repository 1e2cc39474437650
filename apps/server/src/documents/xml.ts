import { DOMParser, type Element as XmlElement, type Node as XmlNode } from '@xmldom/xmldom';
import { ParseFailedError } from './document-builder.ts';

export type { XmlElement };

const ELEMENT_NODE = 1;

/**
 * Parses an OOXML part; a part that is not well-formed XML fails `corrupt`.
 *
 * @example
 * const root = parseXml(text, 'ppt/slides/slide1.xml');
 */
export function parseXml(text: string, part: string): XmlElement {
  let failed: string | undefined;
  let root: XmlElement | null = null;
  try {
    const parser = new DOMParser({
      onError: (level, message) => {
        if (level === 'fatalError') failed ??= message;
      },
    });
    root = parser.parseFromString(text, 'text/xml').documentElement;
  } catch (error) {
    failed ??= error instanceof Error ? error.message : String(error);
  }
  if (failed !== undefined || root === null) {
    throw new ParseFailedError(
      'corrupt',
      `The part ${part} is not well-formed XML${failed === undefined ? '' : `: ${failed}`}.`,
    );
  }
  return root;
}

/** The element children of `node` named `localName` (any namespace prefix), or all when omitted. */
export function childElements(node: XmlNode, localName?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType !== ELEMENT_NODE) continue;
    const element = child as XmlElement;
    if (localName === undefined || element.localName === localName) out.push(element);
  }
  return out;
}

/** The first element child named `localName`. */
export function firstChild(node: XmlNode, localName: string): XmlElement | undefined {
  return childElements(node, localName)[0];
}

/** Every descendant element named `localName`, in document order. */
export function descendants(node: XmlNode, localName: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (parent: XmlNode): void => {
    for (let child = parent.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType !== ELEMENT_NODE) continue;
      const element = child as XmlElement;
      if (element.localName === localName) out.push(element);
      walk(element);
    }
  };
  walk(node);
  return out;
}

/** The attribute `localName` of `element` whatever its prefix (`r:id`, `id`), or undefined. */
export function attribute(element: XmlElement, localName: string): string | undefined {
  const attributes = element.attributes;
  for (let index = 0; index < attributes.length; index++) {
    const attr = attributes.item(index);
    if (attr !== null && (attr.localName === localName || attr.name === localName)) return attr.value;
  }
  return undefined;
}

const RELATIONSHIPS_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The relationship id (`r:id`) of an element, told apart from a plain `id` attribute. */
export function relationshipId(element: XmlElement): string | undefined {
  return element.getAttributeNS(RELATIONSHIPS_NS, 'id') ?? undefined;
}

/** The text of every descendant named `localName` (`t` for OOXML runs), joined. */
export function textOf(node: XmlNode, localName = 't'): string {
  return descendants(node, localName)
    .map((element) => element.textContent ?? '')
    .join('');
}

/**
 * The relationships of an OOXML part (`_rels/*.rels`): id → target, resolved against `baseDir`.
 *
 * @example
 * relationships(text, 'ppt'); // Map { 'rId2' => 'ppt/slides/slide1.xml' }
 */
export function relationships(
  text: string | undefined,
  baseDir: string,
): Map<string, { target: string; type: string }> {
  const out = new Map<string, { target: string; type: string }>();
  if (text === undefined) return out;
  for (const rel of descendants(parseXml(text, `${baseDir}/_rels`), 'Relationship')) {
    const id = attribute(rel, 'Id');
    const target = attribute(rel, 'Target');
    if (id === undefined || target === undefined) continue;
    out.set(id, { target: resolvePart(baseDir, target), type: attribute(rel, 'Type') ?? '' });
  }
  return out;
}

function resolvePart(baseDir: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = baseDir === '' ? [] : baseDir.split('/');
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}

/** Title and author from `docProps/core.xml`. */
export function coreProperties(text: string | undefined): { title: string | null; author: string | null } {
  if (text === undefined) return { title: null, author: null };
  const root = parseXml(text, 'docProps/core.xml');
  return {
    title: descendants(root, 'title')[0]?.textContent ?? null,
    author: descendants(root, 'creator')[0]?.textContent ?? null,
  };
}
