import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EffectiveSetting, EffectiveSettingsResponse, SettingsSchemaResponse } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { collectWorkbenchEvents } from './support/workbench-stream.ts';

function setting(response: EffectiveSettingsResponse | { settings: EffectiveSetting[] }, key: string) {
  const found = response.settings.find((entry) => entry.key === key);
  if (found === undefined) throw new Error(`no setting ${key}`);
  return found;
}

describe.each(DATABASE_KINDS)('settings layers and schema (%s)', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let projectId: string;
  let conversationId: string;
  let otherConversationId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    projectId = (await server.call<{ id: string }>('POST', '/api/projects', { name: 'Layers' })).id;
    conversationId = (
      await server.call<{ id: string }>('POST', '/api/conversations', { project_id: projectId })
    ).id;
    otherConversationId = (
      await server.call<{ id: string }>('POST', '/api/conversations', { project_id: projectId })
    ).id;
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('the schema lists each setting with its type, default, range, effect timing, labels in both languages, layers and source', async () => {
    const schema = await server.call<SettingsSchemaResponse>('GET', '/api/settings/schema');
    const temperature = schema.settings.find((entry) => entry.key === 'run.temperature');
    expect(temperature).toMatchObject({
      section: 'run',
      effect: 'new-run',
      source: 'builtin',
      secret: false,
      layers: ['user', 'project', 'conversation'],
      schema: { type: 'number', minimum: 0, maximum: 2 },
      label: { en: 'Temperature', 'zh-CN': '温度' },
    });
    expect(schema.settings.find((entry) => entry.key === 'server.max_upload_mb')?.effect).toBe('restart');
    expect(schema.settings.find((entry) => entry.key === 'titles.mode')).toMatchObject({
      effect: 'hot',
      schema: { enum: ['auto', 'model', 'first-line'], default: 'auto' },
    });
    expect(schema.sections.map((section) => section.id)).toEqual(
      expect.arrayContaining(['models', 'run', 'budget', 'conversations', 'agent', 'server']),
    );
  });

  it('each key resolves system → user → project → conversation and says which layer its value came from', async () => {
    const before = await server.call<EffectiveSettingsResponse>(
      'GET',
      `/api/settings/effective?conversation_id=${conversationId}`,
    );
    expect(before.project_id).toBe(projectId);
    expect(setting(before, 'budget.max_tool_calls')).toMatchObject({
      value: null,
      layer: 'system',
      set_at: [],
    });

    await server.call('PUT', '/api/settings/values', {
      layer: 'user',
      values: { 'budget.max_tool_calls': 30 },
    });
    await server.call('PUT', '/api/settings/values', {
      layer: 'project',
      scope_id: projectId,
      values: { 'budget.max_tool_calls': 20 },
    });
    await server.call('PUT', '/api/settings/values', {
      layer: 'conversation',
      scope_id: conversationId,
      values: { 'budget.max_tool_calls': 10 },
    });
    const inConversation = await server.call<EffectiveSettingsResponse>(
      'GET',
      `/api/settings/effective?conversation_id=${conversationId}`,
    );
    expect(setting(inConversation, 'budget.max_tool_calls')).toMatchObject({
      value: 10,
      layer: 'conversation',
      set_at: ['user', 'project', 'conversation'],
    });
    const inSibling = await server.call<EffectiveSettingsResponse>(
      'GET',
      `/api/settings/effective?conversation_id=${otherConversationId}`,
    );
    expect(setting(inSibling, 'budget.max_tool_calls')).toMatchObject({ value: 20, layer: 'project' });
    const atUser = await server.call<EffectiveSettingsResponse>('GET', '/api/settings/effective');
    expect(setting(atUser, 'budget.max_tool_calls')).toMatchObject({ value: 30, layer: 'user' });

    // Reset at the project layer: the user's value shows through again for the sibling.
    await server.call(
      'DELETE',
      `/api/settings/values/budget.max_tool_calls?layer=project&scope_id=${projectId}`,
    );
    const afterReset = await server.call<EffectiveSettingsResponse>(
      'GET',
      `/api/settings/effective?conversation_id=${otherConversationId}`,
    );
    expect(setting(afterReset, 'budget.max_tool_calls')).toMatchObject({ value: 30, layer: 'user' });
  });

  it('objects deep-merge across layers', async () => {
    await server.call('PUT', '/api/settings/values', {
      layer: 'project',
      scope_id: projectId,
      values: { 'models.lightweight_parameters': { max_tokens: 30 } },
    });
    const effective = await server.call<EffectiveSettingsResponse>(
      'GET',
      `/api/settings/effective?project_id=${projectId}`,
    );
    expect(setting(effective, 'models.lightweight_parameters')).toMatchObject({
      value: { temperature: 0.2, max_tokens: 30 },
      layer: 'project',
    });
  });

  it('agent settings keep their user layer in ~/.youyou/config.yaml, comments and other keys untouched', async () => {
    const file = join(server.directories.home, 'config.yaml');
    await writeFile(file, '# mine\nmemory_max_items: 7\n');
    await server.call('PUT', '/api/settings/values', {
      layer: 'user',
      values: { 'run.temperature': 0.4, 'agent.base_instructions': 'Be brief.' },
    });
    const text = await readFile(file, 'utf8');
    expect(text).toContain('# mine');
    expect(text).toContain('memory_max_items: 7');
    expect(text).toContain('temperature: 0.4');
    expect(text).toContain('base_instructions: Be brief.');
    // Edited by hand, read back by the API.
    await writeFile(file, text.replace('temperature: 0.4', 'temperature: 0.9'));
    const effective = await server.call<EffectiveSettingsResponse>('GET', '/api/settings/effective');
    expect(setting(effective, 'run.temperature')).toMatchObject({ value: 0.9, layer: 'user' });
    await server.call('DELETE', '/api/settings/values/run.temperature?layer=user');
    expect(await readFile(file, 'utf8')).not.toContain('temperature');
  });

  it('a bad write is a structured error naming every problem, and writes nothing', async () => {
    const response = await server.request<{
      error: { code: string; details: { problems: { key: string; code: string }[] } };
    }>('PUT', '/api/settings/values', {
      body: {
        layer: 'user',
        values: {
          'budget.max_tokens': 1000,
          'run.temperature': 7,
          'no.such.key': 1,
          'agent.tool_timeout_ms': 'soon',
        },
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
    expect(response.body.error.details.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'run.temperature', code: 'INVALID_VALUE' }),
        expect.objectContaining({ key: 'no.such.key', code: 'NOT_FOUND' }),
        expect.objectContaining({ key: 'agent.tool_timeout_ms', code: 'INVALID_VALUE' }),
      ]),
    );
    const effective = await server.call<EffectiveSettingsResponse>('GET', '/api/settings/effective');
    expect(setting(effective, 'budget.max_tokens').value).toBeNull();

    const wrongLayer = await server.request<{
      error: { code: string; details: { problems: { code: string }[] } };
    }>('PUT', '/api/settings/values', {
      body: { layer: 'conversation', scope_id: conversationId, values: { 'server.max_upload_mb': 5 } },
    });
    expect(wrongLayer.status).toBe(400);
    expect(wrongLayer.body.error.details.problems[0]?.code).toBe('LAYER_NOT_ALLOWED');
    const missingScope = await server.request('PUT', '/api/settings/values', {
      body: { layer: 'project', values: { 'budget.max_tokens': 5 } },
    });
    expect(missingScope.status).toBe(400);
    const unknownScope = await server.request('PUT', '/api/settings/values', {
      body: { layer: 'project', scope_id: 'nope', values: { 'budget.max_tokens': 5 } },
    });
    expect(unknownScope.status).toBe(404);
  });

  it('a secret is write-only: stored encrypted, never returned, masked as "has a value"', async () => {
    const secret = 'rk-very-secret-value-123';
    await server.call('PUT', '/api/settings/values', {
      layer: 'user',
      values: { 'models.rerank_api_key': secret },
    });
    const effective = await server.call<EffectiveSettingsResponse>('GET', '/api/settings/effective');
    expect(setting(effective, 'models.rerank_api_key')).toEqual(
      expect.objectContaining({ secret: true, has_value: true, layer: 'user' }),
    );
    expect(setting(effective, 'models.rerank_api_key')).not.toHaveProperty('value');
    for (const path of ['/api/settings/effective', '/api/settings', '/api/settings/schema']) {
      expect(JSON.stringify(await server.call('GET', path))).not.toContain(secret);
    }
    expect(server.logs.join('\n')).not.toContain(secret);
    expect(await server.server.services.settingsService.revealSecret('models.rerank_api_key')).toBe(secret);
    await server.call('DELETE', '/api/settings/values/models.rerank_api_key?layer=user');
    const cleared = await server.call<EffectiveSettingsResponse>('GET', '/api/settings/effective');
    expect(setting(cleared, 'models.rerank_api_key').has_value).toBe(false);
  });

  it('changes are pushed to every open tab as settings.changed, with their effect timing and never a secret', async () => {
    const events = await collectWorkbenchEvents(server, 2, async () => {
      await server.call('PUT', '/api/settings/values', {
        layer: 'user',
        values: { 'titles.mode': 'first-line' },
      });
      await server.call('PUT', '/api/settings/values', {
        layer: 'user',
        values: { 'models.rerank_api_key': 'k-42-secret' },
      });
    });
    expect(events[0]).toMatchObject({
      type: 'settings.changed',
      payload: {
        layer: 'user',
        scope_id: null,
        changes: [{ key: 'titles.mode', effect: 'hot', reset: false }],
      },
    });
    expect(events[1]?.payload).toMatchObject({ changes: [{ key: 'models.rerank_api_key' }] });
    expect(JSON.stringify(events)).not.toContain('k-42-secret');
  });

  it('a setting registered on the server only appears in the schema and takes values (what extensions do)', async () => {
    server.server.services.settingsService.registry.register({
      key: 'example.greeting',
      section: 'example',
      source: 'extension',
      source_id: 'example-extension',
      schema: { type: 'string', default: 'Hello', maxLength: 20 },
      effect: 'hot',
      secret: false,
      layers: ['user', 'conversation'],
      label: { en: 'Greeting', 'zh-CN': '问候语' },
      help: { en: 'What the example says.', 'zh-CN': '示例说的话。' },
    });
    const schema = await server.call<SettingsSchemaResponse>('GET', '/api/settings/schema');
    expect(schema.settings.find((entry) => entry.key === 'example.greeting')?.source).toBe('extension');
    expect(schema.sections.some((section) => section.id === 'example')).toBe(true);
    await server.call('PUT', '/api/settings/values', { layer: 'user', values: { 'example.greeting': 'Hi' } });
    const effective = await server.call<EffectiveSettingsResponse>('GET', '/api/settings/effective');
    expect(setting(effective, 'example.greeting')).toMatchObject({ value: 'Hi', layer: 'user' });
    const tooLong = await server.request('PUT', '/api/settings/values', {
      body: { layer: 'user', values: { 'example.greeting': 'x'.repeat(50) } },
    });
    expect(tooLong.status).toBe(400);
  });

  it('a restart setting says it waits for a restart until the server starts again with it', async () => {
    await server.call('PUT', '/api/settings/values', {
      layer: 'user',
      values: { 'server.max_upload_mb': 1 },
    });
    const pending = await server.call<EffectiveSettingsResponse>('GET', '/api/settings/effective');
    expect(setting(pending, 'server.max_upload_mb')).toMatchObject({ value: 1, pending_restart: true });
    await server.restart();
    const applied = await server.call<EffectiveSettingsResponse>('GET', '/api/settings/effective');
    expect(setting(applied, 'server.max_upload_mb').pending_restart).toBe(false);
    // The web UI checks files against the limit the server reports, so both refuse the same size.
    const health = await server.call<{ max_upload_bytes: number }>('GET', '/api/health');
    expect(health.max_upload_bytes).toBe(1024 * 1024);
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(1_200_000)], { type: 'text/plain' }), 'big.txt');
    const upload = await fetch(`${server.url}/api/uploads`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(upload.status).toBe(413);
  });
});
