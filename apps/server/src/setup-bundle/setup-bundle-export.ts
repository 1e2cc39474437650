import { SETUP_BUNDLE_FORMAT, type ProfileInput, type SetupBundle } from '@youyou/contracts';
import { transportOfRow } from '../mcp/index.ts';
import type { SetupBundleSources } from './setup-bundle-sources.ts';

/**
 * Writes the setup bundle: every part of the user's setup by name, none of their secrets —
 * secret settings are not read, secret header values stay in the secret store, and a stdio
 * server's environment goes by name only.
 *
 * @example
 * const bundle = await exportSetupBundle(sources);
 */
export async function exportSetupBundle(sources: SetupBundleSources): Promise<SetupBundle> {
  const { settings, profiles, library, memory, mcpServers, extensions, projects } = sources;
  const projectRows = await projects.list();
  const projectName = new Map(projectRows.map((row) => [row.id, row.name]));
  const effective = await settings.effective({});
  const values: Record<string, unknown> = {};
  for (const entry of effective.settings) {
    if (!entry.secret && entry.set_at.includes('user')) values[entry.key] = entry.value;
  }
  const servers = await mcpServers.list();
  return {
    format: SETUP_BUNDLE_FORMAT,
    version: 1,
    exported_at: new Date().toISOString(),
    settings: values,
    profiles: (await profiles.list())
      .filter((profile) => !profile.builtin)
      .map(
        ({ id: _id, builtin: _builtin, created_at: _created, updated_at: _updated, ...input }) =>
          input as ProfileInput,
      ),
    snippets: (await library.snippets()).map(({ title, body, tags }) => ({ title, body, tags })),
    macros: (await library.macros()).map(({ name, description, template }) => ({
      name,
      description,
      template,
    })),
    memories: (await memory.repository.all()).map((item) => ({
      scope: item.scope,
      project: item.project_id === null ? null : (projectName.get(item.project_id) ?? null),
      type: item.type,
      content: item.content,
      confidence: item.confidence,
      tags: item.tags,
      expires_at: item.expires_at,
    })),
    mcp_servers: servers.map((row) => {
      const transport = transportOfRow(row);
      return {
        name: row.name,
        scope: row.scope,
        project: row.project_id === null ? null : (projectName.get(row.project_id) ?? null),
        enabled: row.enabled === 1,
        transport:
          transport.type === 'stdio'
            ? {
                type: 'stdio' as const,
                command: transport.command,
                args: transport.args,
                ...(transport.cwd === undefined ? {} : { cwd: transport.cwd }),
                env_names: Object.keys(transport.env).sort(),
              }
            : transport,
        secret_header_names: Object.keys(JSON.parse(row.secret_headers) as Record<string, string>).sort(),
        tool_timeout_ms: row.tool_timeout_ms,
        idle_timeout_ms: row.idle_timeout_ms,
      };
    }),
    extensions: extensions.list().map((extension) => ({
      id: extension.id,
      version: extension.version,
      enabled: extension.state === 'enabled',
    })),
    projects: projectRows.map((row) => ({ name: row.name, directory: row.directory })),
  };
}
