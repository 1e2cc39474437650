import { randomUUID } from 'node:crypto';
import type { McpServerCreateSchema } from '@youyou/contracts';
import {
  McpTransportSchema,
  type McpServer,
  type McpServerStatus,
  type McpServerUpdate,
  type McpTransport,
} from '@youyou/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import { isUniqueViolation, type McpServersTable, type Schema } from '../database/index.ts';
import { ApiError, notFound } from '../errors/index.ts';
import type { SecretRedactor } from '../logging/index.ts';
import type { SecretStore } from '../storage/index.ts';

export type McpServerRow = Selectable<McpServersTable>;
type McpServerCreateInput = z.output<typeof McpServerCreateSchema>;

/** The stored transport of a row. */
export function transportOfRow(row: McpServerRow): McpTransport {
  return McpTransportSchema.parse(JSON.parse(row.transport));
}

/** A row as the API shows it: secret header names only, never their values. */
export function mcpServerViewOf(row: McpServerRow, status: McpServerStatus): McpServer {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    project_id: row.project_id,
    enabled: row.enabled === 1,
    transport: transportOfRow(row),
    secret_header_names: Object.keys(JSON.parse(row.secret_headers) as Record<string, string>).sort(),
    tool_timeout_ms: row.tool_timeout_ms,
    idle_timeout_ms: row.idle_timeout_ms,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    status,
  };
}

/**
 * MCP server configurations, per user or per project (spec §4.8, §4.9). Secret header values go
 * to the secret store (encrypted); rows keep their ids. This is the one place the configuration
 * is read and written — the settings API and the MCP routes both come through it.
 *
 * @example
 * const row = await servers.create({ name: 'docs', transport: { type: 'http', url } });
 * const headers = await servers.secretHeaders(row); // for the connection, never a response
 */
export class McpServerRepository {
  readonly #db: Kysely<Schema>;
  readonly #secrets: SecretStore;
  readonly #redactor: SecretRedactor | undefined;

  constructor(db: Kysely<Schema>, secrets: SecretStore, redactor?: SecretRedactor) {
    this.#db = db;
    this.#secrets = secrets;
    this.#redactor = redactor;
  }

  /** Servers that apply to a conversation of `projectId` (user servers, then the project's). */
  async applicable(projectId: string | null): Promise<McpServerRow[]> {
    let query = this.#db.selectFrom('mcp_servers').selectAll().where('enabled', '=', 1);
    query =
      projectId === null
        ? query.where('scope', '=', 'user')
        : query.where((where) =>
            where.or([where('scope', '=', 'user'), where('project_id', '=', projectId)]),
          );
    return query.orderBy('scope', 'desc').orderBy('name').execute();
  }

  /** Every server, or those of one project (`project_id`) or of the user (`null`). */
  async list(projectId?: string | null): Promise<McpServerRow[]> {
    let query = this.#db.selectFrom('mcp_servers').selectAll();
    if (projectId === null) query = query.where('scope', '=', 'user');
    else if (projectId !== undefined) query = query.where('project_id', '=', projectId);
    return query.orderBy('scope', 'desc').orderBy('name').execute();
  }

  async find(id: string): Promise<McpServerRow | undefined> {
    return this.#db.selectFrom('mcp_servers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async get(id: string): Promise<McpServerRow> {
    const row = await this.find(id);
    if (row === undefined) throw notFound('mcp_server', id);
    return row;
  }

  async create(input: McpServerCreateInput): Promise<McpServerRow> {
    const projectId = input.scope === 'project' ? (input.project_id ?? null) : null;
    if (input.scope === 'project') {
      if (projectId === null) {
        throw new ApiError('INVALID_INPUT', 'A project server needs a project_id.', {
          details: { field: 'project_id' },
        });
      }
      const project = await this.#db
        .selectFrom('projects')
        .select('id')
        .where('id', '=', projectId)
        .executeTakeFirst();
      if (project === undefined) throw notFound('project', projectId);
    } else if (input.project_id !== undefined) {
      throw new ApiError('INVALID_INPUT', 'A user server has no project_id; use scope "project".', {
        details: { field: 'project_id' },
      });
    }
    checkSecretHeaders(input.transport, input.secret_headers);
    const now = Date.now();
    const row: McpServerRow = {
      id: randomUUID(),
      owner: null,
      name: input.name,
      scope: input.scope,
      project_id: projectId,
      scope_key: projectId ?? 'user',
      enabled: input.enabled ? 1 : 0,
      transport: JSON.stringify(input.transport),
      secret_headers: '{}',
      tool_timeout_ms: input.tool_timeout_ms ?? null,
      idle_timeout_ms: input.idle_timeout_ms ?? null,
      created_at: now,
      updated_at: now,
    };
    await this.#db
      .transaction()
      .execute(async (transaction) => {
        row.secret_headers = JSON.stringify(
          await this.#storeSecrets({}, input.secret_headers ?? {}, transaction),
        );
        await transaction.insertInto('mcp_servers').values(row).execute();
      })
      .catch((error: unknown) => {
        throw conflictOr(error, input.name);
      });
    return row;
  }

  async update(id: string, changes: McpServerUpdate): Promise<McpServerRow> {
    const row = await this.get(id);
    const transport =
      changes.transport === undefined ? transportOfRow(row) : McpTransportSchema.parse(changes.transport);
    checkSecretHeaders(transport, changes.secret_headers);
    const next: Partial<McpServerRow> = { updated_at: Math.max(Date.now(), row.updated_at + 1) };
    if (changes.name !== undefined) next.name = changes.name;
    if (changes.enabled !== undefined) next.enabled = changes.enabled ? 1 : 0;
    if (changes.transport !== undefined) next.transport = JSON.stringify(transport);
    if (changes.tool_timeout_ms !== undefined) next.tool_timeout_ms = changes.tool_timeout_ms;
    if (changes.idle_timeout_ms !== undefined) next.idle_timeout_ms = changes.idle_timeout_ms;
    await this.#db
      .transaction()
      .execute(async (transaction) => {
        if (changes.secret_headers !== undefined) {
          const stored = JSON.parse(row.secret_headers) as Record<string, string>;
          next.secret_headers = JSON.stringify(
            await this.#storeSecrets(stored, changes.secret_headers, transaction),
          );
        }
        await transaction.updateTable('mcp_servers').set(next).where('id', '=', id).execute();
      })
      .catch((error: unknown) => {
        throw conflictOr(error, changes.name ?? row.name);
      });
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    const row = await this.get(id);
    const secretIds = Object.values(JSON.parse(row.secret_headers) as Record<string, string>);
    await this.#db.transaction().execute(async (transaction) => {
      await transaction.deleteFrom('mcp_servers').where('id', '=', id).execute();
      for (const secretId of secretIds) await this.#secrets.delete(secretId, transaction);
    });
  }

  /** The secret header values of a server, for its connection. */
  async secretHeaders(row: McpServerRow): Promise<Record<string, string>> {
    const headers: Record<string, string> = {};
    for (const [name, secretId] of Object.entries(JSON.parse(row.secret_headers) as Record<string, string>)) {
      const value = await this.#secrets.reveal(secretId);
      this.#redactor?.add(value);
      headers[name] = value;
    }
    return headers;
  }

  async #storeSecrets(
    stored: Record<string, string>,
    changes: Readonly<Record<string, string | null>>,
    db: Kysely<Schema>,
  ): Promise<Record<string, string>> {
    const result = { ...stored };
    for (const [name, value] of Object.entries(changes)) {
      const existing = result[name];
      if (value === null) {
        if (existing !== undefined) await this.#secrets.delete(existing, db);
        delete result[name];
        continue;
      }
      this.#redactor?.add(value);
      if (existing === undefined) result[name] = await this.#secrets.put(`mcp header ${name}`, value, db);
      else await this.#secrets.replace(existing, value, db);
    }
    return result;
  }
}

function checkSecretHeaders(
  transport: McpTransport,
  secretHeaders: Readonly<Record<string, string | null>> | undefined,
): void {
  if (secretHeaders === undefined || Object.keys(secretHeaders).length === 0) return;
  if (transport.type !== 'http') {
    throw new ApiError('INVALID_INPUT', 'Secret headers are for HTTP servers; a stdio server takes env.', {
      details: { field: 'secret_headers' },
    });
  }
  for (const name of Object.keys(secretHeaders)) {
    if (Object.keys(transport.headers).some((header) => header.toLowerCase() === name.toLowerCase())) {
      throw new ApiError('INVALID_INPUT', `The header ${name} is given both as plain and as secret.`, {
        details: { field: 'secret_headers', header: name },
      });
    }
  }
}

function conflictOr(error: unknown, name: string): unknown {
  if (!isUniqueViolation(error)) return error;
  return new ApiError('CONFLICT', `An MCP server named '${name}' already exists here.`, {
    details: { name },
  });
}
