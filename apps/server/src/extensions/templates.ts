import { TEMPLATE_REFERENCE, type JsonTemplate } from '@youyou/contracts';

/** A `{{…}}` reference of a template: an argument, a setting or a secret. */
export interface TemplateReference {
  kind: 'argument' | 'setting' | 'secret';
  name: string;
}

/**
 * Every reference in a string template.
 *
 * @example
 * referencesOf('Bearer {{secret:api_key}}'); // [{ kind: 'secret', name: 'api_key' }]
 */
export function referencesOf(template: string): TemplateReference[] {
  return [...template.matchAll(TEMPLATE_REFERENCE)].map((match) => ({
    kind: match[1] === 'secret' ? 'secret' : match[1] === 'setting' ? 'setting' : 'argument',
    name: match[2] ?? '',
  }));
}

/** Every reference in a JSON template (its strings). */
export function jsonReferencesOf(template: JsonTemplate): TemplateReference[] {
  if (typeof template === 'string') return referencesOf(template);
  if (Array.isArray(template)) return template.flatMap(jsonReferencesOf);
  if (template !== null && typeof template === 'object')
    return Object.values(template).flatMap(jsonReferencesOf);
  return [];
}

/** Looks a reference up; `undefined` fills in as empty text. */
export type Resolve = (reference: TemplateReference) => unknown;

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Fills a string template; `encode` is applied to each filled-in value (URL encoding in URLs).
 *
 * @example
 * fillString('/w?city={{city}}', () => 'São Paulo', (value) => encodeURIComponent(value)); // '/w?city=S%C3%A3o%20Paulo'
 */
export function fillString(
  template: string,
  resolve: Resolve,
  encode: (value: string, reference: TemplateReference) => string = (value) => value,
): string {
  return template.replace(TEMPLATE_REFERENCE, (_whole, kind: string | undefined, name: string) => {
    const reference: TemplateReference = {
      kind: kind === 'secret' ? 'secret' : kind === 'setting' ? 'setting' : 'argument',
      name,
    };
    return encode(text(resolve(reference)), reference);
  });
}

const WHOLE_REFERENCE = /^\{\{\s*(?:(setting|secret):)?([A-Za-z_][\w.-]*)\s*\}\}$/;

/**
 * Fills a JSON template: a string that is only one reference takes the value with its JSON type
 * (`"{{count}}"` → `3`); other strings are filled as text.
 *
 * @example
 * fillJson({ n: '{{count}}', s: 'n={{count}}' }, () => 3); // { n: 3, s: 'n=3' }
 */
export function fillJson(template: JsonTemplate, resolve: Resolve): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE_REFERENCE.exec(template);
    if (whole !== null) {
      const kind = whole[1] === 'secret' ? 'secret' : whole[1] === 'setting' ? 'setting' : 'argument';
      return resolve({ kind, name: whole[2] ?? '' }) ?? null;
    }
    return fillString(template, resolve);
  }
  if (Array.isArray(template)) return template.map((item) => fillJson(item, resolve));
  if (template !== null && typeof template === 'object')
    return Object.fromEntries(
      Object.entries(template).map(([key, value]) => [key, fillJson(value, resolve)]),
    );
  return template;
}
