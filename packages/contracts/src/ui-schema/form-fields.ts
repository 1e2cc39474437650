import { z } from 'zod';

/**
 * Form fields of the UI-schema vocabulary (spec agent-system-skeleton-design-r4 §4.5, §4.6): the
 * fields of a `Form` node and of a HITL `form` card are the same shape, checked by the same
 * function on the server and in the browser.
 */

/** The field types a form may use. */
export const FORM_FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  'select',
  'multiselect',
  'checkbox',
  'date',
] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

/** A field id: also the key of its value in the answer. */
export const FORM_FIELD_ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * One field of a form.
 *
 * @example
 * formFieldSchema.parse({ id: 'city', type: 'text', label: 'City', required: true, maxLength: 80 });
 */
export const formFieldSchema = z.object({
  id: z.string().regex(FORM_FIELD_ID_PATTERN),
  type: z.enum(FORM_FIELD_TYPES),
  label: z.string().min(1).max(200),
  description: z.string().max(1000).optional(),
  required: z.boolean().optional(),
  placeholder: z.string().max(200).optional(),
  /** For select and multiselect. */
  options: z
    .array(z.object({ value: z.string().min(1).max(200), label: z.string().min(1).max(200) }))
    .optional(),
  /** For number. */
  min: z.number().optional(),
  max: z.number().optional(),
  /** For text and textarea. */
  minLength: z.number().int().nonnegative().optional(),
  maxLength: z.number().int().positive().optional(),
  /** For text and textarea: a regular expression (JavaScript syntax) the whole value must match. */
  pattern: z.string().min(1).max(500).optional(),
  /** Shown under a text field whose value does not match `pattern`. */
  patternMessage: z.string().max(200).optional(),
  /** For text: the value is masked as it is typed (a key, a password). */
  secret: z.boolean().optional(),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
});
export type FormField = z.infer<typeof formFieldSchema>;

/** Values of a form answer. */
export type FormValue = string | number | boolean | string[] | null;

/** The values of a submitted form, by field id. */
export const FormValuesSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]),
);
export type FormValues = z.infer<typeof FormValuesSchema>;

/** A problem with a form, a card or a UI document: where, and what to fix. */
export interface CardProblem {
  path: string;
  message: string;
}

/** The longest text a pattern is tried on; a longer value is refused before the pattern runs. */
const PATTERN_INPUT_LIMIT = 20_000;

/** The field's pattern as a whole-value regular expression, or undefined when it has none or it does not compile. */
export function fieldPattern(field: Pick<FormField, 'pattern'>): RegExp | undefined {
  if (field.pattern === undefined) return undefined;
  try {
    return new RegExp(`^(?:${field.pattern})$`, 'u');
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with the fields themselves: duplicate ids, selects without options, patterns that
 * do not compile, min above max. Empty when fine.
 *
 * @example
 * formFieldsProblems([{ id: 'a', type: 'select', label: 'A' }]);
 * // [{ path: '0.options', message: 'a select field needs options' }]
 */
export function formFieldsProblems(fields: readonly FormField[], prefix = ''): CardProblem[] {
  const problems: CardProblem[] = [];
  const ids = new Set<string>();
  for (const [index, field] of fields.entries()) {
    const at = `${prefix}${index}`;
    if (ids.has(field.id)) problems.push({ path: `${at}.id`, message: `duplicate field id "${field.id}"` });
    ids.add(field.id);
    if ((field.type === 'select' || field.type === 'multiselect') && !(field.options?.length ?? 0)) {
      problems.push({ path: `${at}.options`, message: `a ${field.type} field needs options` });
    }
    if (field.pattern !== undefined && fieldPattern(field) === undefined) {
      problems.push({ path: `${at}.pattern`, message: 'is not a valid regular expression' });
    }
    if (field.min !== undefined && field.max !== undefined && field.min > field.max) {
      problems.push({ path: `${at}.min`, message: 'is above max' });
    }
    if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength) {
      problems.push({ path: `${at}.minLength`, message: 'is above maxLength' });
    }
  }
  return problems;
}

/**
 * Checks form values against a form's fields: required fields present, types, numbers in range,
 * text lengths and patterns, select values among the options, dates as YYYY-MM-DD. Unknown fields
 * are problems too. The server runs it on every answer; the browser runs it before sending.
 *
 * @example
 * formValueProblems([{ id: 'n', type: 'number', label: 'N', min: 1 }], { n: 0 });
 * // [{ path: 'n', message: 'must be at least 1' }]
 */
export function formValueProblems(
  fields: readonly FormField[],
  values: Readonly<Record<string, FormValue>>,
): CardProblem[] {
  const problems: CardProblem[] = [];
  const known = new Set(fields.map((field) => field.id));
  for (const key of Object.keys(values)) {
    if (!known.has(key)) problems.push({ path: key, message: 'not a field of this form' });
  }
  for (const field of fields) {
    const value = values[field.id];
    const empty =
      value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
    if (empty) {
      if (field.required === true) problems.push({ path: field.id, message: 'is required' });
      continue;
    }
    const optionValues = new Set((field.options ?? []).map((option) => option.value));
    switch (field.type) {
      case 'text':
      case 'textarea': {
        if (typeof value !== 'string') {
          problems.push({ path: field.id, message: 'must be text' });
          break;
        }
        const pattern = fieldPattern(field);
        if (field.maxLength !== undefined && value.length > field.maxLength)
          problems.push({ path: field.id, message: `must be at most ${field.maxLength} characters` });
        else if (field.minLength !== undefined && value.length < field.minLength)
          problems.push({ path: field.id, message: `must be at least ${field.minLength} characters` });
        else if (pattern !== undefined && (value.length > PATTERN_INPUT_LIMIT || !pattern.test(value)))
          problems.push({ path: field.id, message: field.patternMessage ?? 'is not in the expected format' });
        break;
      }
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value))
          problems.push({ path: field.id, message: 'must be a number' });
        else if (field.min !== undefined && value < field.min)
          problems.push({ path: field.id, message: `must be at least ${field.min}` });
        else if (field.max !== undefined && value > field.max)
          problems.push({ path: field.id, message: `must be at most ${field.max}` });
        break;
      case 'checkbox':
        if (typeof value !== 'boolean') problems.push({ path: field.id, message: 'must be true or false' });
        break;
      case 'date':
        if (
          typeof value !== 'string' ||
          !/^\d{4}-\d{2}-\d{2}$/.test(value) ||
          Number.isNaN(Date.parse(value))
        )
          problems.push({ path: field.id, message: 'must be a date (YYYY-MM-DD)' });
        break;
      case 'select':
        if (typeof value !== 'string' || !optionValues.has(value))
          problems.push({ path: field.id, message: `must be one of ${[...optionValues].join(', ')}` });
        break;
      case 'multiselect':
        if (!Array.isArray(value) || value.some((item) => !optionValues.has(item)))
          problems.push({ path: field.id, message: `must be a list of ${[...optionValues].join(', ')}` });
        break;
    }
  }
  return problems;
}
