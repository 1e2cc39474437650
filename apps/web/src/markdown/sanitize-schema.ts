import { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';

/**
 * rehype-sanitize's GitHub schema, plus the classes that code highlighting and math need. Model
 * output is never rendered without it: no raw HTML, no scripts, no event handlers, no
 * `javascript:` links, no inline styles.
 */
export const SANITIZE_SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  // Citations link to documents as `youyou-doc:<id>#block-N` (decision 0014); the link component
  // opens them in the viewer, never as a navigation.
  protocols: {
    ...defaultSchema.protocols,
    href: [...(defaultSchema.protocols?.['href'] ?? []), 'youyou-doc'],
  },
  attributes: {
    ...defaultSchema.attributes,
    code: [
      ...(defaultSchema.attributes?.['code'] ?? []),
      ['className', /^language-./, 'math-inline', 'math-display'],
    ],
    span: [...(defaultSchema.attributes?.['span'] ?? []), ['className', 'math-inline', 'math-display']],
    div: [...(defaultSchema.attributes?.['div'] ?? []), ['className', 'math-display']],
  },
};
