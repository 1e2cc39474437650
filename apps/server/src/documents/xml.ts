import { SaxesParser } from 'saxes';
import { ParseFailedError } from './document-builder.ts';

/** One attribute: its local name, namespace URI (empty when none) and value. */
export interface XmlAttribute {
  local: string;
  name: string;
  uri: string;
  value: string;
}

/** An element of a parsed part: its local name, attributes and children (elements and text). */
export interface XmlElement {
  localName: string;
  attributes: XmlAttribute[];
  children: (XmlElement | string)[];
}

/**
 * Parses an OOXML part into a light element tree, read with saxes (the DOM of xmldom it replaced
 * spent most of a deck's parse compiling a regular expression per end tag); a part that is not
 * well-formed XML fails `corrupt`.
 *
 * @example
 * const root = parseXml(text, 'ppt/slides/slide1.xml');
 */
export function parseXml(text: string, part: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('opentag', (tag) => {
    const attributes: XmlAttribute[] = [];
    for (const attribute of Object.values(tag.attributes))
      attributes.push({
        local: attribute.local,
        name: attribute.name,
        uri: attribute.uri,
        value: attribute.value,
      });
    const element: XmlElement = { localName: tag.local, attributes, children: [] };
    const parent = stack.at(-1);
    if (parent === undefined) root ??= element;
    else parent.children.push(element);
    if (!tag.isSelfClosing) stack.push(element);
  });
  const addText = (value: string): void => {
    stack.at(-1)?.children.push(value);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) stack.pop();
  });
  let failed: string | undefined;
  parser.on('error', (error) => {
    failed ??= error.message;
    throw error;
  });
  try {
    parser.write(text).close();
  } catch (error) {
    failed ??= error instanceof Error ? error.message : String(error);
  }
  if (failed !== undefined || root === undefined) {
    throw new ParseFailedError(
      'corrupt',
      `The part ${part} is not well-formed XML${failed === undefined ? '' : `: ${failed}`}.`,
    );
  }
  return root;
}

/** The element children of `node` named `localName` (any namespace prefix), or all when omitted. */
export function childElements(node: XmlElement, localName?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of node.children)
    if (typeof child !== 'string' && (localName === undefined || child.localName === localName))
      out.push(child);
  return out;
}

/** The first element child named `localName`. */
export function firstChild(node: XmlElement, localName: string): XmlElement | undefined {
  for (const child of node.children)
    if (typeof child !== 'string' && child.localName === localName) return child;
  return undefined;
}

/** Every descendant element named `localName`, in document order. */
export function descendants(node: XmlElement, localName: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (parent: XmlElement): void => {
    for (const child of parent.children) {
      if (typeof child === 'string') continue;
      if (child.localName === localName) out.push(child);
      walk(child);
    }
  };
  walk(node);
  return out;
}

/** The attribute `localName` of `element` whatever its prefix (`r:id`, `id`), or undefined. */
export function attribute(element: XmlElement, localName: string): string | undefined {
  for (const attr of element.attributes)
    if (attr.local === localName || attr.name === localName) return attr.value;
  return undefined;
}

const RELATIONSHIPS_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The relationship id (`r:id`) of an element, told apart from a plain `id` attribute. */
export function relationshipId(element: XmlElement): string | undefined {
  return element.attributes.find((attr) => attr.uri === RELATIONSHIPS_NS && attr.local === 'id')?.value;
}

/** All the text inside an element, as the DOM's `textContent`. */
export function textContent(node: XmlElement): string {
  let out = '';
  for (const child of node.children) out += typeof child === 'string' ? child : textContent(child);
  return out;
}

/** The text of every descendant named `localName` (`t` for OOXML runs), joined. */
export function textOf(node: XmlElement, localName = 't'): string {
  return descendants(node, localName).map(textContent).join('');
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
    title: firstText(descendants(root, 'title')[0]),
    author: firstText(descendants(root, 'creator')[0]),
  };
}

function firstText(element: XmlElement | undefined): string | null {
  return element === undefined ? null : textContent(element);
}
