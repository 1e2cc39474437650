import type { FormField, FormValue, SettingDefinition } from '@youyou/contracts';

/** A value as the text of a text field (objects and arrays as JSON). */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value, null, 2);
}

/** How a setting is edited: committed as soon as it changes (switch, choice) or on leaving the field. */
export type SettingCommit = 'change' | 'leave';

/**
 * The form field of the UI-schema vocabulary (the same controls as a HITL form card) a setting's
 * JSON Schema is edited with: a switch for booleans, a choice for `enum` and the model and profile
 * pickers, a number with its range, JSON text for objects and lists, a masked text for secrets.
 *
 * @example
 * settingField(definition, 'Temperature', []); // { id: 'value', type: 'number', min: 0, max: 2, … }
 */
export function settingField(
  definition: SettingDefinition,
  label: string,
  choices: readonly { value: string; label: string }[],
): { field: FormField; commit: SettingCommit } {
  const { schema } = definition;
  const base = { id: 'value', label };
  if (definition.secret) return { field: { ...base, type: 'text', secret: true }, commit: 'leave' };
  if (schema.type === 'boolean') return { field: { ...base, type: 'checkbox' }, commit: 'change' };
  if (schema.enum !== undefined || schema.format === 'model' || schema.format === 'profile') {
    const options =
      schema.enum !== undefined
        ? schema.enum.map((option) => ({ value: String(option), label: String(option) }))
        : [...choices];
    return { field: { ...base, type: 'select', options }, commit: 'change' };
  }
  if (schema.type === 'number' || schema.type === 'integer') {
    return {
      field: {
        ...base,
        type: 'number',
        ...(schema.minimum === undefined ? {} : { min: schema.minimum }),
        ...(schema.maximum === undefined ? {} : { max: schema.maximum }),
      },
      commit: 'leave',
    };
  }
  if (schema.type === 'object' || schema.type === 'array' || schema.format === 'multiline') {
    return { field: { ...base, type: 'textarea' }, commit: 'leave' };
  }
  return {
    field: {
      ...base,
      type: 'text',
      ...(schema.maxLength === undefined ? {} : { maxLength: schema.maxLength }),
    },
    commit: 'leave',
  };
}

/** The field's value for a stored value: what the control shows. */
export function fieldValue(definition: SettingDefinition, field: FormField, value: unknown): FormValue {
  switch (field.type) {
    case 'checkbox':
      return value === true;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'select': {
      const current = textOf(value);
      return current === '' ? null : current;
    }
    default:
      return definition.secret ? '' : textOf(value);
  }
}

/**
 * The value to write for what the control holds, or why there is none: an empty optional field
 * clears it, JSON text must parse, a choice maps back to the schema's own `enum` value.
 */
export function settingValue(
  definition: SettingDefinition,
  field: FormField,
  value: FormValue,
): { value: unknown } | { error: 'schema.notJson' } {
  const { schema } = definition;
  if ((value === null || value === '') && schema.nullable === true) return { value: null };
  if (field.type === 'select') {
    const option = schema.enum?.find((candidate) => String(candidate) === value);
    return { value: option ?? value };
  }
  if (field.type === 'textarea' && schema.type !== 'string' && typeof value === 'string') {
    try {
      return { value: JSON.parse(value) as unknown };
    } catch {
      return { error: 'schema.notJson' };
    }
  }
  return { value };
}
