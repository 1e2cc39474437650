import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Prepared statements kept per SQL text; Kysely compiles the same few hundred queries over and over. */
const STATEMENT_CACHE_SIZE = 256;

const READER_PREFIX = /^\s*(select|with|pragma|explain|values)\b/i;
const RETURNING = /\breturning\b/i;

/**
 * True when the statement yields rows. Node ≥ 22.16 tells us through `columns()`; older 22.x
 * releases fall back to the SQL text.
 */
function isReader(statement: StatementSync, sql: string): boolean {
  const withColumns = statement as StatementSync & { columns?: () => readonly unknown[] };
  if (typeof withColumns.columns === 'function') return withColumns.columns().length > 0;
  return READER_PREFIX.test(sql) || RETURNING.test(sql);
}

/** Kysely passes booleans and `undefined` through; node:sqlite accepts neither. */
function toSqlValue(value: unknown): SQLInputValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as SQLInputValue;
}

function bind(parameters: readonly unknown[]): SQLInputValue[] {
  return parameters.map(toSqlValue);
}

class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: StatementSync;

  constructor(statement: StatementSync, sql: string) {
    this.#statement = statement;
    this.reader = isReader(statement, sql);
  }

  all(parameters: readonly unknown[]): unknown[] {
    return this.#statement.all(...bind(parameters));
  }

  run(parameters: readonly unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint } {
    return this.#statement.run(...bind(parameters));
  }

  iterate(parameters: readonly unknown[]): IterableIterator<unknown> {
    return this.#statement.iterate(...bind(parameters)) as IterableIterator<unknown>;
  }
}

/**
 * Adapts Node's built-in `DatabaseSync` (node:sqlite) to the database interface Kysely's
 * `SqliteDialect` drives, with a small cache of prepared statements. Kysely serialises access to
 * the single connection itself.
 *
 * @example
 * const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new NodeSqliteDatabase(new DatabaseSync(file)) }) });
 */
export class NodeSqliteDatabase implements SqliteDatabase {
  readonly raw: DatabaseSync;
  readonly #statements = new Map<string, NodeSqliteStatement>();

  constructor(raw: DatabaseSync) {
    this.raw = raw;
  }

  prepare(sql: string): SqliteStatement {
    const cached = this.#statements.get(sql);
    if (cached !== undefined) {
      // Refresh its place: the map keeps insertion order, so the first key is the least recently used.
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const statement = new NodeSqliteStatement(this.raw.prepare(sql), sql);
    this.#statements.set(sql, statement);
    if (this.#statements.size > STATEMENT_CACHE_SIZE) {
      const oldest = this.#statements.keys().next().value;
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    return statement;
  }

  close(): void {
    this.#statements.clear();
    try {
      this.raw.close();
    } catch {
      // Already closed: closing twice is not an error here.
    }
  }
}
