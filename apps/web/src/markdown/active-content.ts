import type { Element, Root } from 'hast';

/**
 * URL schemes that run code or documents when followed. `href`, `src` and friends carrying one
 * are removed wherever they appear, whatever produced them (Markdown, KaTeX, mermaid).
 */
// eslint-disable-next-line no-control-regex -- control characters before a scheme are how filters are dodged
const ACTIVE_URL = /^[\s\u0000-\u001f]*(?:javascript|vbscript|data\s*:\s*text\/html|livescript)\s*:/i;

/** Attributes whose value is a URL the browser may follow or load. */
const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
  'href',
  'xlink:href',
  'xLinkHref',
  'src',
  'action',
  'formaction',
  'formAction',
  'poster',
  'background',
  'ping',
  'data',
]);

/**
 * True when an attribute may run script: an event handler (`on*`) or a URL attribute whose value
 * (HTML entities and control characters already decoded by the parser) uses an active scheme.
 *
 * @example
 * isActiveAttribute('onclick', 'x()'); // true
 * isActiveAttribute('href', ' JaVaScRiPt:alert(1)'); // true
 * isActiveAttribute('href', 'https://example.com'); // false
 */
export function isActiveAttribute(name: string, value: string): boolean {
  if (/^on/i.test(name)) return true;
  if (URL_ATTRIBUTES.has(name) || URL_ATTRIBUTES.has(name.toLowerCase())) return ACTIVE_URL.test(value);
  // Any other attribute holding an active URL (a mermaid `title="javascript:…"` a later script
  // might follow) goes too: nothing we render needs one.
  return ACTIVE_URL.test(value);
}

function strip(node: Root | Element): void {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    for (const [name, value] of Object.entries(child.properties)) {
      const text = Array.isArray(value) ? value.join(' ') : String(value ?? '');
      if (isActiveAttribute(name, text)) delete child.properties[name];
    }
    strip(child);
  }
}

/**
 * The last rehype step over model output: drops every event handler and active URL from the
 * tree, after sanitizing and after KaTeX (whose output is not sanitized again). CSP stays the
 * last barrier, not the first.
 *
 * @example
 * rehypePlugins: [[rehypeSanitize, SANITIZE_SCHEMA], rehypeKatex, rehypeStripActiveContent]
 */
export function rehypeStripActiveContent() {
  return (tree: Root): void => strip(tree);
}
