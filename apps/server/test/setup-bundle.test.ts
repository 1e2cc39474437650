import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentProfile, MemoryList, SetupBundle, SetupImportPlan } from '@youyou/contracts';
import { createWorkbenchClient } from '@youyou/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const SECRET_SETTING = 'rerank-key-never-in-a-bundle-0001';
const SECRET_HEADER = 'Bearer header-secret-never-in-a-bundle-0002';
const SECRET_ENV = 'env-value-never-in-a-bundle-0003';

const profile = {
  name: 'Careful writer',
  systemPrompt: 'Write carefully.',
  model: { id: 'fake/fake-model' },
  parameters: { temperature: 0.3 },
  tools: { allow: ['*'], deny: [], confirm: [] },
  context: { policy: 'default' },
  hitl: { askOnAmbiguity: false, timeoutSec: null },
  budget: {},
};

for (const kind of DATABASE_KINDS) {
  describe(`the setup bundle on ${kind}`, () => {
    let sourceDatabase: TestDatabase;
    let targetDatabase: TestDatabase;
    let source: TestServer;
    let target: TestServer;
    let bundle: SetupBundle;

    beforeAll(async () => {
      sourceDatabase = await createTestDatabase(kind);
      targetDatabase = await createTestDatabase(kind);
      source = await startTestServer({ database: sourceDatabase, lightweightFallback: false });
      target = await startTestServer({ database: targetDatabase, lightweightFallback: false });

      const project = await source.call<{ id: string }>('POST', '/api/projects', { name: 'Atlas' });
      await source.call('PUT', '/api/settings/values', {
        layer: 'user',
        values: {
          'run.temperature': 0.4,
          'titles.mode': 'first-line',
          'models.rerank_api_key': SECRET_SETTING,
        },
      });
      await source.call('POST', '/api/profiles', profile);
      await source.call('POST', '/api/snippets', { title: 'Greeting', body: 'Hello there', tags: ['mail'] });
      await source.call('POST', '/api/macros', {
        name: 'summarise',
        description: 'Sum up',
        template: 'Sum up: {{input}}',
      });
      await source.call('PUT', '/api/memory/settings', { enabled: true });
      await source.call('POST', '/api/memories', { scope: 'user', content: 'Prefers metric units' });
      await source.call('POST', '/api/memories', {
        scope: 'project',
        project_id: project.id,
        content: 'Atlas ships in May',
      });
      await source.call('POST', '/api/mcp/servers', {
        name: 'docs',
        transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Team': 'docs' } },
        secret_headers: { Authorization: SECRET_HEADER },
      });
      await source.call('POST', '/api/mcp/servers', {
        name: 'files',
        scope: 'project',
        project_id: project.id,
        enabled: false,
        transport: { type: 'stdio', command: 'node', args: ['server.js'], env: { API_KEY: SECRET_ENV } },
      });
    }, 60_000);

    afterAll(async () => {
      await source?.close();
      await target?.close();
      await sourceDatabase?.drop();
      await targetDatabase?.drop();
    });

    it("one export holds the user's whole setup — settings with config.yaml values, profiles, macros, snippets, memories, MCP servers, extensions, projects — and no secret", async () => {
      const client = createWorkbenchClient({ baseUrl: source.url, token: source.token });
      bundle = await client.exportSetupBundle();
      expect(bundle).toMatchObject({ format: 'youyou-setup-bundle', version: 1 });
      // run.temperature lives in config.yaml: the bundle carries the file's value.
      expect(await readFile(join(source.directories.home, 'config.yaml'), 'utf8')).toContain(
        'temperature: 0.4',
      );
      expect(bundle.settings).toMatchObject({ 'run.temperature': 0.4, 'titles.mode': 'first-line' });
      expect(bundle.settings).not.toHaveProperty('models.rerank_api_key');
      expect(bundle.profiles.map((item) => item.name)).toEqual(['Careful writer']);
      expect(bundle.snippets).toEqual([{ title: 'Greeting', body: 'Hello there', tags: ['mail'] }]);
      expect(bundle.macros).toEqual([
        { name: 'summarise', description: 'Sum up', template: 'Sum up: {{input}}' },
      ]);
      expect(bundle.memories.map((memory) => [memory.scope, memory.project, memory.content])).toEqual([
        ['user', null, 'Prefers metric units'],
        ['project', 'Atlas', 'Atlas ships in May'],
      ]);
      expect(bundle.projects).toEqual([{ name: 'Atlas', directory: null }]);
      const docs = bundle.mcp_servers.find((server) => server.name === 'docs');
      expect(docs).toMatchObject({
        secret_header_names: ['Authorization'],
        transport: { headers: { 'X-Team': 'docs' } },
      });
      const files = bundle.mcp_servers.find((server) => server.name === 'files');
      expect(files).toMatchObject({
        scope: 'project',
        project: 'Atlas',
        enabled: false,
        transport: { env_names: ['API_KEY'] },
      });
      expect(Array.isArray(bundle.extensions)).toBe(true);
      const text = JSON.stringify(bundle);
      for (const secret of [SECRET_SETTING, SECRET_HEADER, SECRET_ENV, source.token])
        expect(text).not.toContain(secret);
    });

    it('the preview says what an import would create, overwrite or skip and writes nothing; the import then does exactly that', async () => {
      // The target has a profile of the same name, different, and the same snippet already.
      await target.call('POST', '/api/profiles', { ...profile, systemPrompt: 'Write fast.' });
      await target.call('POST', '/api/snippets', { title: 'Greeting', body: 'Hello there', tags: ['mail'] });
      const client = createWorkbenchClient({ baseUrl: target.url, token: target.token });
      const preview: SetupImportPlan = await client.previewSetupBundle(bundle);
      expect(preview.applied).toBe(false);
      const actionOf = (plan: SetupImportPlan, section: string, name: string) =>
        plan.items.find((item) => item.section === section && item.name === name)?.action;
      expect(actionOf(preview, 'projects', 'Atlas')).toBe('create');
      expect(actionOf(preview, 'settings', 'run.temperature')).toBe('create');
      expect(actionOf(preview, 'profiles', 'Careful writer')).toBe('overwrite');
      expect(actionOf(preview, 'snippets', 'Greeting')).toBe('skip');
      expect(actionOf(preview, 'macros', 'summarise')).toBe('create');
      expect(actionOf(preview, 'memories', 'Atlas ships in May')).toBe('create');
      expect(preview.items.find((item) => item.name === 'docs')).toMatchObject({
        action: 'create',
        note: 'needs its secret headers: Authorization',
      });
      expect(preview.items.find((item) => item.name === 'files')?.note).toContain(
        'environment values: API_KEY',
      );
      // Nothing was written by the preview.
      expect((await target.call<{ projects: unknown[] }>('GET', '/api/projects')).projects).toEqual([]);
      expect((await target.call<{ macros: unknown[] }>('GET', '/api/macros')).macros).toEqual([]);

      const report = await client.importSetupBundle(bundle);
      expect(report.applied).toBe(true);
      expect(report.counts).toEqual(preview.counts);
      const projects = (
        await target.call<{ projects: { id: string; name: string }[] }>('GET', '/api/projects')
      ).projects;
      expect(projects.map((project) => project.name)).toEqual(['Atlas']);
      expect(await readFile(join(target.directories.home, 'config.yaml'), 'utf8')).toContain(
        'temperature: 0.4',
      );
      const profiles = (await target.call<{ profiles: AgentProfile[] }>('GET', '/api/profiles')).profiles;
      expect(
        profiles.filter((item) => item.name === 'Careful writer').map((item) => item.systemPrompt),
      ).toEqual(['Write carefully.']);
      expect((await target.call<{ snippets: unknown[] }>('GET', '/api/snippets')).snippets).toHaveLength(1);
      const memories = await target.call<MemoryList>('GET', '/api/memories');
      expect(memories.memories.find((memory) => memory.content === 'Atlas ships in May')).toMatchObject({
        scope: 'project',
        project_id: projects[0]?.id,
      });
      const servers = (
        await target.call<{
          servers: { name: string; project_id: string | null; transport: { env?: Record<string, string> } }[];
        }>('GET', '/api/mcp/servers')
      ).servers;
      expect(servers.find((server) => server.name === 'files')).toMatchObject({
        project_id: projects[0]?.id,
        transport: { env: { API_KEY: '' } },
      });

      // Imported again: everything is the same here now, so nothing is written.
      const again = await client.previewSetupBundle(bundle);
      expect(again.counts).toEqual({ create: 0, overwrite: 0, skip: again.items.length });
    });

    it('a file that is not a setup bundle is a structured 400 and imports nothing', async () => {
      const response = await target.request<{ error: { code: string } }>('POST', '/api/setup-bundle/import', {
        body: { format: 'youyou-setup-bundle', version: 2 },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('INVALID_INPUT');
    });
  });
}
