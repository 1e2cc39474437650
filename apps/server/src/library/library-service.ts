import { randomUUID } from 'node:crypto';
import {
  LIBRARY_FILE_FORMAT,
  LibraryFileSchema,
  MacroInputSchema,
  SnippetInputSchema,
  templateVariables,
  type LibraryFile,
  type Macro,
  type MacroInput,
  type Snippet,
  type SnippetInput,
} from '@youyou/contracts';
import type { Kysely, Selectable } from 'kysely';
import { isUniqueViolation, type MacrosTable, type Schema, type SnippetsTable } from '../database/index.ts';
import { ApiError, notFound } from '../errors/index.ts';
import { BUILTIN_COMMAND_NAMES } from './command-registry.ts';

function macroOfRow(row: Selectable<MacrosTable>): Macro {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    template: row.template,
    variables: templateVariables(row.template),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

function snippetOfRow(row: Selectable<SnippetsTable>): Snippet {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    tags: JSON.parse(row.tags) as string[],
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** The keys of a patch that carry a value. */
function definedOf(patch: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
}

function invalid(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  message: string,
): ApiError {
  return new ApiError('INVALID_INPUT', message, {
    details: {
      problems: issues
        .slice(0, 50)
        .map((issue) => ({ path: `/${issue.path.map(String).join('/')}`, message: issue.message })),
    },
  });
}

/**
 * The user's macros (`/name` → a prompt template with `{{variables}}`) and snippet library (spec
 * §4.14): create, edit, delete, and import/export as one JSON file. An import is checked whole
 * first; a bad file imports nothing.
 *
 * @example
 * await library.createMacro({ name: 'translate', description: 'Translate', template: 'Translate {{text}} into {{language}}.' });
 */
export class LibraryService {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async macros(): Promise<Macro[]> {
    return (await this.#db.selectFrom('macros').selectAll().orderBy('name').execute()).map(macroOfRow);
  }

  async macro(id: string): Promise<Macro> {
    const row = await this.#db.selectFrom('macros').selectAll().where('id', '=', id).executeTakeFirst();
    if (row === undefined) throw notFound('macro', id);
    return macroOfRow(row);
  }

  async createMacro(input: MacroInput, db: Kysely<Schema> = this.#db): Promise<Macro> {
    const parsed = MacroInputSchema.safeParse(input);
    if (!parsed.success) throw invalid(parsed.error.issues, 'The macro is not valid.');
    this.#checkName(parsed.data.name);
    const now = Date.now();
    const row = { id: randomUUID(), owner: null, ...parsed.data, created_at: now, updated_at: now };
    try {
      await db.insertInto('macros').values(row).execute();
    } catch (error) {
      throw this.#conflict(error, parsed.data.name);
    }
    return macroOfRow(row);
  }

  async updateMacro(
    id: string,
    patch: { [Key in keyof MacroInput]?: MacroInput[Key] | undefined },
  ): Promise<Macro> {
    const current = await this.macro(id);
    const parsed = MacroInputSchema.safeParse({ ...current, ...definedOf(patch) });
    if (!parsed.success) throw invalid(parsed.error.issues, 'The macro is not valid.');
    this.#checkName(parsed.data.name);
    try {
      await this.#db
        .updateTable('macros')
        .set({ ...parsed.data, updated_at: Date.now() })
        .where('id', '=', id)
        .execute();
    } catch (error) {
      throw this.#conflict(error, parsed.data.name);
    }
    return this.macro(id);
  }

  async deleteMacro(id: string): Promise<void> {
    const result = await this.#db.deleteFrom('macros').where('id', '=', id).executeTakeFirst();
    if (result.numDeletedRows === 0n) throw notFound('macro', id);
  }

  async snippets(query?: string): Promise<Snippet[]> {
    const rows = await this.#db.selectFrom('snippets').selectAll().orderBy('title').orderBy('id').execute();
    const all = rows.map(snippetOfRow);
    const needle = query?.trim().toLowerCase();
    if (needle === undefined || needle === '') return all;
    return all.filter(
      (snippet) =>
        snippet.title.toLowerCase().includes(needle) ||
        snippet.body.toLowerCase().includes(needle) ||
        snippet.tags.some((tag) => tag.toLowerCase().includes(needle)),
    );
  }

  async snippet(id: string): Promise<Snippet> {
    const row = await this.#db.selectFrom('snippets').selectAll().where('id', '=', id).executeTakeFirst();
    if (row === undefined) throw notFound('snippet', id);
    return snippetOfRow(row);
  }

  async createSnippet(input: SnippetInput, db: Kysely<Schema> = this.#db): Promise<Snippet> {
    const parsed = SnippetInputSchema.safeParse(input);
    if (!parsed.success) throw invalid(parsed.error.issues, 'The snippet is not valid.');
    const now = Date.now();
    const row = {
      id: randomUUID(),
      owner: null,
      title: parsed.data.title,
      body: parsed.data.body,
      tags: JSON.stringify(parsed.data.tags),
      created_at: now,
      updated_at: now,
    };
    await db.insertInto('snippets').values(row).execute();
    return snippetOfRow(row);
  }

  async updateSnippet(
    id: string,
    patch: { [Key in keyof SnippetInput]?: SnippetInput[Key] | undefined },
  ): Promise<Snippet> {
    const current = await this.snippet(id);
    const parsed = SnippetInputSchema.safeParse({ ...current, ...definedOf(patch) });
    if (!parsed.success) throw invalid(parsed.error.issues, 'The snippet is not valid.');
    await this.#db
      .updateTable('snippets')
      .set({
        title: parsed.data.title,
        body: parsed.data.body,
        tags: JSON.stringify(parsed.data.tags),
        updated_at: Date.now(),
      })
      .where('id', '=', id)
      .execute();
    return this.snippet(id);
  }

  async deleteSnippet(id: string): Promise<void> {
    const result = await this.#db.deleteFrom('snippets').where('id', '=', id).executeTakeFirst();
    if (result.numDeletedRows === 0n) throw notFound('snippet', id);
  }

  async export(): Promise<LibraryFile> {
    return {
      format: LIBRARY_FILE_FORMAT,
      version: 1,
      snippets: (await this.snippets()).map(({ title, body, tags }) => ({ title, body, tags })),
      macros: (await this.macros()).map(({ name, description, template }) => ({
        name,
        description,
        template,
      })),
    };
  }

  /**
   * Imports a library file: snippets are added; a macro whose name exists is replaced. Checked
   * whole first — a file that is not JSON or not a library file imports nothing.
   */
  async import(text: string): Promise<{ snippets: number; macros: number }> {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new ApiError('INVALID_INPUT', 'The file is not JSON.', {
        details: { reason: 'not_json', message: error instanceof Error ? error.message : String(error) },
      });
    }
    const parsed = LibraryFileSchema.safeParse(data);
    if (!parsed.success) throw invalid(parsed.error.issues, 'This is not a snippet library file.');
    for (const macro of parsed.data.macros) this.#checkName(macro.name);
    await this.#db.transaction().execute(async (transaction) => {
      for (const snippet of parsed.data.snippets) await this.createSnippet(snippet, transaction);
      for (const macro of parsed.data.macros) {
        await transaction.deleteFrom('macros').where('name', '=', macro.name).execute();
        await this.createMacro(macro, transaction);
      }
    });
    return { snippets: parsed.data.snippets.length, macros: parsed.data.macros.length };
  }

  #checkName(name: string): void {
    if (BUILTIN_COMMAND_NAMES.includes(name)) {
      throw new ApiError('CONFLICT', `/${name} is a built-in command; give the macro another name.`, {
        details: { name },
      });
    }
  }

  #conflict(error: unknown, name: string): unknown {
    if (isUniqueViolation(error)) {
      return new ApiError('CONFLICT', `A macro named '${name}' exists already.`, { details: { name } });
    }
    return error;
  }
}
