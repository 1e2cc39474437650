import DOMPurify from 'dompurify';
import { isActiveAttribute } from './active-content.ts';

/** Elements a diagram never needs and that can run script, load documents or hold HTML. */
const FORBIDDEN_ELEMENTS: ReadonlySet<string> = new Set([
  'script',
  'foreignobject',
  'iframe',
  'object',
  'embed',
  'use',
  'image',
  'handler',
  'listener',
]);

/** SMIL elements that can write an attribute (e.g. `href` to `javascript:…`) after sanitizing. */
const ANIMATION_ELEMENTS: ReadonlySet<string> = new Set([
  'animate',
  'set',
  'animatetransform',
  'animatemotion',
]);

function clean(element: Element): void {
  for (const child of [...element.children]) {
    const name = child.localName.toLowerCase();
    if (FORBIDDEN_ELEMENTS.has(name) || ANIMATION_ELEMENTS.has(name)) {
      child.remove();
      continue;
    }
    if (name === 'a') {
      // A link around a node (a `click` directive): keep the drawing, drop the link.
      clean(child);
      child.replaceWith(...child.childNodes);
      continue;
    }
    clean(child);
  }
  for (const attribute of [...element.attributes]) {
    if (isActiveAttribute(attribute.name, attribute.value) || /(^|:)href$/i.test(attribute.name)) {
      element.removeAttribute(attribute.name);
    }
  }
}

let hooked = false;

function purify(svg: string): string {
  if (!DOMPurify.isSupported) return svg; // Already cleaned by our own pass below.
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook('uponSanitizeAttribute', (_node, data) => {
      if (isActiveAttribute(data.attrName, data.attrValue)) data.keepAttr = false;
    });
  }
  return DOMPurify.sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: [...FORBIDDEN_ELEMENTS, ...ANIMATION_ELEMENTS, 'a'],
  });
}

/**
 * Our own pass over an SVG: parsed as SVG, with script, `foreignObject`, links, animations that
 * set attributes, every `on*` handler, `href` and any attribute holding an active URL removed.
 * Throws when the SVG does not parse.
 *
 * @example
 * cleanSvg('<svg xmlns="http://www.w3.org/2000/svg" onload="x()"/>'); // '<svg xmlns="…"/>'
 */
export function cleanSvg(svg: string): string {
  const document = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const root = document.documentElement;
  if (root.localName !== 'svg' || document.getElementsByTagName('parsererror').length > 0) {
    throw new Error('the diagram is not a well-formed SVG');
  }
  clean(root);
  for (const attribute of [...root.attributes]) {
    if (isActiveAttribute(attribute.name, attribute.value)) root.removeAttribute(attribute.name);
  }
  return new XMLSerializer().serializeToString(root);
}

/**
 * A mermaid SVG made safe to insert: `cleanSvg`, then DOMPurify's SVG profile. Mermaid's
 * `securityLevel: 'strict'` is not trusted alone: labels and `click` directives come from model
 * output. Throws when the SVG does not parse, so the caller shows the diagram's source instead.
 *
 * @example
 * element.innerHTML = sanitizeSvg((await mermaid.render(id, code)).svg);
 */
export function sanitizeSvg(svg: string): string {
  return purify(cleanSvg(svg));
}
