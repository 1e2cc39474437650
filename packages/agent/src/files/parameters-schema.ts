import { describeValue, formatPath } from './front-matter-reader.ts';
import type { FrontMatterReader } from './front-matter-reader.ts';

/** The parameter types a tool's `parameters` list may use (JSON Schema type names). */
export const PARAMETER_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;

export type ParameterType = (typeof PARAMETER_TYPES)[number];

const PARAMETER_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'type',
  'description',
  'required',
  'enum',
  'items',
]);
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/** The schema of a tool with no parameters. */
export function emptyParametersSchema(): Record<string, unknown> {
  return { type: 'object', properties: {}, additionalProperties: false };
}

/**
 * Reads a tool's `parameters` (spec §5.3) into a JSON Schema object. The field is either the
 * spec's list of `{name, type, description, required}` (plus optional `enum` and array `items`),
 * or, for nested shapes, a JSON Schema mapping with `type: object` used as is.
 *
 * @example
 * // parameters:
 * //   - { name: pattern, type: string, description: What to find, required: true }
 * readParameters(reader);
 * // → { type: 'object', properties: { pattern: { type: 'string', description: 'What to find' } },
 * //     required: ['pattern'], additionalProperties: false }
 */
export function readParameters(reader: FrontMatterReader): Record<string, unknown> | undefined {
  const value = reader.value(['parameters']);
  if (value === undefined || value === null) return emptyParametersSchema();
  if (!Array.isArray(value)) {
    if (typeof value === 'object') {
      const schema = value as Record<string, unknown>;
      if (schema['type'] !== 'object') {
        return reader.fail(
          ['parameters'],
          'field `parameters` must be a list of parameters, or a JSON Schema mapping with `type: object`',
        );
      }
      return schema;
    }
    return reader.fail(['parameters'], `field \`parameters\` must be a list, found ${describeValue(value)}`);
  }
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  let valid = true;
  value.forEach((_item: unknown, index) => {
    const path = ['parameters', index];
    const item = reader.mapping(path);
    if (item === undefined) {
      if (!reader.has(path)) reader.fail(path, `\`${formatPath(path)}\` is empty`);
      valid = false;
      return;
    }
    reader.warnUnknownKeys(path, PARAMETER_FIELDS);
    const name = reader.string([...path, 'name'], { required: true });
    const type = readParameterType(reader, [...path, 'type']);
    const description = reader.string([...path, 'description']);
    const isRequired = reader.boolean([...path, 'required'], false);
    if (name === undefined || type === undefined) {
      valid = false;
      return;
    }
    if (!PARAMETER_NAME.test(name)) {
      reader.fail(
        [...path, 'name'],
        `parameter name ${JSON.stringify(name)} must be a letter or "_" followed by letters, digits, "_", "." or "-"`,
      );
      valid = false;
      return;
    }
    if (Object.hasOwn(properties, name)) {
      reader.fail([...path, 'name'], `parameter \`${name}\` is declared twice`);
      valid = false;
      return;
    }
    const property: Record<string, unknown> = { type };
    if (description !== undefined) property['description'] = description;
    const enumValues = readEnum(reader, [...path, 'enum']);
    if (enumValues !== undefined) property['enum'] = enumValues;
    if (reader.has([...path, 'items'])) {
      if (type !== 'array')
        reader.fail([...path, 'items'], '`items` is only allowed on a parameter of type array');
      const itemType = readParameterType(reader, [...path, 'items', 'type']);
      if (itemType !== undefined) property['items'] = { type: itemType };
    }
    properties[name] = property;
    if (isRequired) required.push(name);
  });
  if (!valid) return undefined;
  const schema: Record<string, unknown> = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema['required'] = required;
  return schema;
}

function readParameterType(reader: FrontMatterReader, path: (string | number)[]): ParameterType | undefined {
  const type = reader.string(path, { required: true });
  if (type === undefined) return undefined;
  if (!(PARAMETER_TYPES as readonly string[]).includes(type)) {
    return reader.fail(
      path,
      `\`${formatPath(path)}\` must be one of ${PARAMETER_TYPES.join(', ')}, found ${describeValue(type)}`,
    );
  }
  return type as ParameterType;
}

function readEnum(reader: FrontMatterReader, path: (string | number)[]): unknown[] | undefined {
  const value = reader.value(path);
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length === 0) {
    return reader.fail(path, `\`${formatPath(path)}\` must be a non-empty list of values`);
  }
  const scalar = value.every((item: unknown) => ['string', 'number', 'boolean'].includes(typeof item));
  if (!scalar) return reader.fail(path, `\`${formatPath(path)}\` may hold only text, numbers and booleans`);
  return value as unknown[];
}
