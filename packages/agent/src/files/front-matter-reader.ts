import type { FrontMatterDocument, FrontMatterPath } from './front-matter.ts';

/**
 * One problem with a front matter field; `line` is the file line when known.
 *
 * @example
 * const issue: FieldIssue = { message: 'field `version` is missing (it must be 1)', line: 2 };
 */
export interface FieldIssue {
  message: string;
  line?: number;
}

/**
 * What reading an entry file gives: the definition, or the errors that skip the folder.
 *
 * @example
 * const result: EntryReadResult<SkillDefinition> = readSkillEntry(document, 'commit');
 * if (!result.ok) result.errors.forEach((error) => console.log(error.message));
 */
export type EntryReadResult<T> =
  | { ok: true; value: T; warnings: readonly FieldIssue[] }
  | { ok: false; errors: readonly FieldIssue[]; warnings: readonly FieldIssue[] };

/** The largest `timeout_ms` a timer can hold (about 24.8 days). */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** `['parameters', 1, 'type']` → "parameters[1].type". */
export function formatPath(path: FrontMatterPath): string {
  let text = '';
  for (const step of path)
    text += typeof step === 'number' ? `[${String(step)}]` : text === '' ? step : `.${step}`;
  return text;
}

/** Describes a YAML value's type for messages: "a list", "the number 3", "nothing". */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string')
    return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `the ${typeof value} ${String(value)}`;
}

/**
 * Typed, line-aware reads of front matter fields. Each read that fails records an error and
 * returns `undefined`, so one pass reports every problem of a file.
 *
 * @example
 * const reader = new FrontMatterReader(document);
 * reader.version();
 * const name = reader.string(['name'], { required: true });
 * if (reader.errors.length > 0) skip(reader.errors);
 */
export class FrontMatterReader {
  readonly errors: FieldIssue[] = [];
  readonly warnings: FieldIssue[] = [];
  readonly document: FrontMatterDocument;

  constructor(document: FrontMatterDocument) {
    this.document = document;
  }

  value(path: FrontMatterPath): unknown {
    let current: unknown = this.document.data;
    for (const step of path) {
      if (current === null || typeof current !== 'object') return undefined;
      if (!Object.hasOwn(current, step)) return undefined;
      current = (current as Record<string | number, unknown>)[step];
    }
    return current;
  }

  has(path: FrontMatterPath): boolean {
    const value = this.value(path);
    return value !== undefined && value !== null;
  }

  fail(path: FrontMatterPath, message: string): undefined {
    this.errors.push(this.issue(path, message));
    return undefined;
  }

  warn(path: FrontMatterPath, message: string): void {
    this.warnings.push(this.issue(path, message));
  }

  /** `version` must be present and equal 1 (spec §5.2). */
  version(options: { required: boolean } = { required: true }): void {
    const value = this.value(['version']);
    if (value === undefined || value === null) {
      if (options.required) this.fail(['version'], 'field `version` is missing (it must be 1)');
      return;
    }
    if (value !== 1) {
      this.fail(
        ['version'],
        `field \`version\` must be 1, found ${describeValue(value)} (unsupported format version)`,
      );
    }
  }

  string(
    path: FrontMatterPath,
    options: { required?: boolean; nonEmpty?: boolean } = {},
  ): string | undefined {
    const value = this.value(path);
    if (value === undefined || value === null) {
      return options.required === true
        ? this.fail(path, `field \`${formatPath(path)}\` is missing`)
        : undefined;
    }
    if (typeof value !== 'string') {
      return this.fail(path, `field \`${formatPath(path)}\` must be text, found ${describeValue(value)}`);
    }
    if ((options.nonEmpty ?? options.required) === true && value.trim() === '') {
      return this.fail(path, `field \`${formatPath(path)}\` is empty`);
    }
    return value;
  }

  boolean(path: FrontMatterPath, fallback: boolean): boolean {
    const value = this.value(path);
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') {
      this.fail(path, `field \`${formatPath(path)}\` must be true or false, found ${describeValue(value)}`);
      return fallback;
    }
    return value;
  }

  timeout(path: FrontMatterPath): number | undefined {
    const value = this.value(path);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > MAX_TIMEOUT_MS) {
      return this.fail(
        path,
        `field \`${formatPath(path)}\` must be a whole number of milliseconds between 1 and ${String(MAX_TIMEOUT_MS)}, found ${describeValue(value)}`,
      );
    }
    return value;
  }

  /** A list of text; numbers and booleans are accepted and written as text (`[--count, 3]`). */
  stringList(path: FrontMatterPath): string[] | undefined {
    const value = this.value(path);
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) {
      return this.fail(path, `field \`${formatPath(path)}\` must be a list, found ${describeValue(value)}`);
    }
    const items: string[] = [];
    let valid = true;
    value.forEach((item: unknown, index) => {
      if (typeof item === 'string') items.push(item);
      else if (typeof item === 'number' || typeof item === 'boolean') items.push(String(item));
      else {
        valid = false;
        this.fail(
          [...path, index],
          `\`${formatPath([...path, index])}\` must be text, found ${describeValue(item)}`,
        );
      }
    });
    return valid ? items : undefined;
  }

  mapping(path: FrontMatterPath, options: { required?: boolean } = {}): Record<string, unknown> | undefined {
    const value = this.value(path);
    if (value === undefined || value === null) {
      return options.required === true
        ? this.fail(path, `field \`${formatPath(path)}\` is missing`)
        : undefined;
    }
    if (typeof value !== 'object' || Array.isArray(value)) {
      return this.fail(
        path,
        `field \`${formatPath(path)}\` must be a mapping, found ${describeValue(value)}`,
      );
    }
    return value as Record<string, unknown>;
  }

  /** Warns about keys of the mapping at `path` that are not in `known`; they are ignored. */
  warnUnknownKeys(path: FrontMatterPath, known: ReadonlySet<string>): void {
    const value = path.length === 0 ? this.document.data : this.value(path);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const key of Object.keys(value)) {
      if (!known.has(key)) {
        const where = path.length === 0 ? '' : ` in \`${formatPath(path)}\``;
        this.warn([...path, key], `unknown field \`${key}\`${where} ignored`);
      }
    }
  }

  /** The entry could not be read; there is always at least one error. */
  failure<T>(): EntryReadResult<T> {
    return this.result<T>(undefined);
  }

  result<T>(value: T | undefined): EntryReadResult<T> {
    if (this.errors.length > 0 || value === undefined) {
      const errors = this.errors.length > 0 ? this.errors : [{ message: 'the entry file could not be read' }];
      return { ok: false, errors, warnings: this.warnings };
    }
    return { ok: true, value, warnings: this.warnings };
  }

  private issue(path: FrontMatterPath, message: string): FieldIssue {
    const line = this.document.lineOf(path);
    return line === undefined ? { message } : { message, line };
  }
}
