import { z } from 'zod';

/**
 * Values bound to a UI document's data model, in A2UI's shapes (basic catalog v0.9): a literal, a
 * `{ path }` binding (a JSON Pointer; without a leading `/` it is relative to the list item a
 * template is drawn for), or a call of one of a closed set of formatting functions.
 */

/** A JSON Pointer into the data model (`/a/b`), or a path relative to the current list item (`b`). */
export const DataBindingSchema = z.object({ path: z.string().max(500) }).strict();
export type DataBinding = z.infer<typeof DataBindingSchema>;

/** The formatting functions a value may call (A2UI basic catalog names and arguments). */
export const UI_FORMAT_FUNCTIONS = ['formatString', 'formatNumber', 'formatCurrency', 'formatDate'] as const;
export type UiFormatFunction = (typeof UI_FORMAT_FUNCTIONS)[number];

const argumentValueSchema = z.union([z.string(), z.number(), z.boolean(), DataBindingSchema]);

/**
 * A formatting call: `formatString` interpolates `${/path}` in `value`; `formatNumber` takes
 * `value` and `decimals`; `formatCurrency` `value`, `currency` and `decimals`; `formatDate`
 * `value` and a `format` (`date`, `time`, `datetime`, or a TR35 pattern of y M d H m).
 */
export const FormatCallSchema = z
  .object({
    call: z.enum(UI_FORMAT_FUNCTIONS),
    args: z.record(z.string(), argumentValueSchema),
    returnType: z.literal('string').optional(),
  })
  .strict();
export type FormatCall = z.infer<typeof FormatCallSchema>;

export const DynamicStringSchema = z.union([z.string().max(20_000), DataBindingSchema, FormatCallSchema]);
export type DynamicString = z.infer<typeof DynamicStringSchema>;
export const DynamicNumberSchema = z.union([z.number(), DataBindingSchema]);
export type DynamicNumber = z.infer<typeof DynamicNumberSchema>;
export const DynamicBooleanSchema = z.union([z.boolean(), DataBindingSchema]);
export type DynamicBoolean = z.infer<typeof DynamicBooleanSchema>;
/** Any literal JSON value or a binding: the arguments of an action. */
export const DynamicValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  DataBindingSchema,
  z.array(z.unknown()),
]);
export type DynamicValue = z.infer<typeof DynamicValueSchema>;

/** Where a value is resolved: the document's data and, inside a list template, the item's pointer. */
export interface UiScope {
  data: unknown;
  /** The JSON Pointer of the current list item (`/tasks/2`), or '' at the top. */
  base: string;
}

function unescapePointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * The absolute pointer a binding path names in a scope.
 *
 * @example
 * absolutePointer('name', { data: {}, base: '/tasks/0' }); // '/tasks/0/name'
 */
export function absolutePointer(path: string, scope: Pick<UiScope, 'base'>): string {
  if (path.startsWith('/')) return path;
  if (path === '' || path === '.') return scope.base;
  return `${scope.base}/${path}`;
}

/**
 * The pointer of a key under a pointer (`/` and `` name the whole model).
 *
 * @example
 * childPointer('/', 'city'); // '/city'
 * childPointer('/form', 'a/b'); // '/form/a~1b'
 */
export function childPointer(pointer: string, key: string): string {
  const base = pointer === '/' ? '' : pointer;
  return `${base}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/**
 * The value at a JSON Pointer, or undefined.
 *
 * @example
 * readPointer({ a: [{ b: 1 }] }, '/a/0/b'); // 1
 */
export function readPointer(data: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return data;
  let current: unknown = data;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const token = unescapePointerToken(raw);
    if (Array.isArray(current)) current = current[Number(token)];
    else if (typeof current === 'object' && current !== null && Object.hasOwn(current, token))
      current = (current as Record<string, unknown>)[token];
    else return undefined;
  }
  return current;
}

/**
 * A copy of `data` with `value` at `pointer` (objects created on the way; arrays copied).
 *
 * @example
 * writePointer({}, '/form/city', 'Oslo'); // { form: { city: 'Oslo' } }
 */
export function writePointer(data: unknown, pointer: string, value: unknown): unknown {
  const tokens = pointer.replace(/^\//, '').split('/').map(unescapePointerToken);
  const write = (current: unknown, index: number): unknown => {
    const token = tokens[index];
    if (token === undefined) return value;
    if (token === '__proto__' || token === 'constructor' || token === 'prototype') return current;
    if (Array.isArray(current)) {
      const copy = [...current];
      copy[Number(token)] = write(current[Number(token)], index + 1);
      return copy;
    }
    const object =
      typeof current === 'object' && current !== null ? (current as Record<string, unknown>) : {};
    return { ...object, [token]: write(object[token], index + 1) };
  };
  return write(data, 0);
}

function isBinding(value: unknown): value is DataBinding {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'path' in value;
}

/** A bound value as it stands in the data model (literals unchanged). */
export function resolveValue(value: unknown, scope: UiScope): unknown {
  if (isBinding(value)) return readPointer(scope.data, absolutePointer(value.path, scope));
  return value;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function formatDate(value: unknown, format: string, locale: string | undefined): string {
  const date = new Date(typeof value === 'number' ? value : asText(value));
  if (Number.isNaN(date.getTime())) return asText(value);
  if (format === 'time') return date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  if (format === 'datetime') return date.toLocaleString(locale);
  if (format === '' || format === 'date') return date.toLocaleDateString(locale);
  const pad = (number: number, width: number) => String(number).padStart(width, '0');
  // A TR35 subset: the tokens a schema most needs; anything else is kept as written.
  return format.replace(/yyyy|yy|MM|M|dd|d|HH|H|mm|ss/g, (token) => {
    switch (token) {
      case 'yyyy':
        return pad(date.getFullYear(), 4);
      case 'yy':
        return pad(date.getFullYear() % 100, 2);
      case 'MM':
        return pad(date.getMonth() + 1, 2);
      case 'M':
        return String(date.getMonth() + 1);
      case 'dd':
        return pad(date.getDate(), 2);
      case 'd':
        return String(date.getDate());
      case 'HH':
        return pad(date.getHours(), 2);
      case 'H':
        return String(date.getHours());
      case 'mm':
        return pad(date.getMinutes(), 2);
      default:
        return pad(date.getSeconds(), 2);
    }
  });
}

/**
 * A dynamic string as text: bindings read, formatting calls applied, anything else (a missing
 * path, an object) shown as its plain text. Never throws.
 *
 * @example
 * resolveText({ call: 'formatString', args: { value: 'Hi ${/name}' } }, { data: { name: 'Ada' }, base: '' });
 * // 'Hi Ada'
 */
export function resolveText(value: DynamicString | undefined, scope: UiScope, locale?: string): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if ('path' in value) return asText(resolveValue(value, scope));
  const argument = (name: string) => resolveValue(value.args[name], scope);
  switch (value.call) {
    case 'formatString':
      return asText(argument('value')).replace(/\$\{([^}]*)\}/g, (_match, path: string) =>
        asText(resolveValue({ path: path.trim() }, scope)),
      );
    case 'formatNumber': {
      const number = Number(argument('value'));
      if (!Number.isFinite(number)) return asText(argument('value'));
      const decimals = argument('decimals');
      return number.toLocaleString(
        locale,
        typeof decimals === 'number'
          ? { minimumFractionDigits: decimals, maximumFractionDigits: decimals }
          : {},
      );
    }
    case 'formatCurrency': {
      const number = Number(argument('value'));
      const currency = asText(argument('currency')) || 'USD';
      if (!Number.isFinite(number)) return asText(argument('value'));
      try {
        return number.toLocaleString(locale, { style: 'currency', currency });
      } catch {
        return `${number} ${currency}`;
      }
    }
    case 'formatDate':
      return formatDate(argument('value'), asText(argument('format')), locale);
  }
}

/**
 * The arguments of an action with every binding read from the data model.
 *
 * @example
 * resolveArguments({ city: { path: '/city' }, days: 3 }, { data: { city: 'Oslo' }, base: '' });
 * // { city: 'Oslo', days: 3 }
 */
export function resolveArguments(
  argumentsMap: Readonly<Record<string, DynamicValue>> | undefined,
  scope: UiScope,
): Record<string, unknown> {
  const resolved: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(argumentsMap ?? {})) {
    const result = resolveValue(value, scope);
    if (result !== undefined) resolved[name] = result;
  }
  return resolved;
}
