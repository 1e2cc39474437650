import { execFileSync } from 'node:child_process';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type {
  ConversationMessage,
  ExtensionList,
  ExtensionPreview,
  InstalledExtension,
  RegistryList,
  RetrievalResult,
  SettingsSchemaResponse,
  ToolInfo,
  WorkbenchEvent,
} from '@youyou/contracts';
import { fakeAskUserReply, fakeTextReply, fakeToolCallReply, lastUserText } from '@youyou/testing';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import {
  EXAMPLE_EXTENSION,
  installExtension,
  startWeatherService,
  type WeatherService,
} from './support/extensions.ts';
import { waitingCard } from './support/hitl.ts';
import { isRunEnd, readEvents } from './support/sse.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const SECRET = 'sk-example-secret-4711';

function toolOutputs(messages: readonly ConversationMessage[], name: string): string[] {
  return (messages.at(-1)?.parts ?? []).flatMap((part) =>
    part.type === 'tool_result' && part.tool_name === name ? [part.output] : [],
  );
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(DATABASE_KINDS)('extensions on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let weather: WeatherService;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database, server: { mutatingToolPolicy: 'confirm' } });
    weather = await startWeatherService();
  });

  afterAll(async () => {
    await server?.close();
    await weather?.close();
    await database?.drop();
  });

  async function turn(text: string, replies: Parameters<TestServer['fake']['push']>) {
    server.fake.push(...replies);
    const { id } = await server.call<{ id: string }>('POST', '/api/conversations', {});
    const sent = await server.call<{ run: { id: string } }>('POST', `/api/conversations/${id}/messages`, {
      text,
    });
    return { conversationId: id, runId: sent.run.id, view: () => server.settled(id, sent.run.id) };
  }

  async function tools(): Promise<ToolInfo[]> {
    return (await server.call<{ tools: ToolInfo[] }>('GET', '/api/tools')).tools;
  }

  async function copyOfExample(name: string): Promise<string> {
    const directory = join(server.directories.root, name);
    await rm(directory, { recursive: true, force: true });
    await cp(EXAMPLE_EXTENSION, directory, { recursive: true });
    return directory;
  }

  it('shows the permissions before installing, records what was accepted, and refuses other permissions', async () => {
    const preview = await server.call<ExtensionPreview>('POST', '/api/extensions/preview', {
      path: EXAMPLE_EXTENSION,
    });
    expect(preview).toMatchObject({
      ok: true,
      problems: [],
      replaces: null,
      permissions: { network: { domains: ['127.0.0.1', 'localhost'] }, data: { scopes: ['conversation'] } },
      counts: {
        tools: 1,
        panels: 1,
        cards: 1,
        forms: 1,
        workflows: 1,
        intents: 1,
        knowledge: 1,
        settings: 3,
      },
    });
    // Nothing is installed by a preview.
    expect((await server.call<ExtensionList>('GET', '/api/extensions')).extensions).toEqual([]);
    const widened = await server.request<{ error: { code: string } }>('POST', '/api/extensions', {
      body: {
        staging_id: preview.staging_id,
        accepted_permissions: { ...preview.permissions, network: { domains: ['127.0.0.1'] } },
      },
    });
    expect(widened.status).toBe(409);
    expect(widened.body.error.code).toBe('EXTENSION_PERMISSIONS_NOT_ACCEPTED');
    const installed = await server.call<InstalledExtension>('POST', '/api/extensions', {
      staging_id: preview.staging_id,
      accepted_permissions: preview.permissions,
    });
    expect(installed).toMatchObject({ id: 'example', version: '1.0.0', state: 'enabled', problems: [] });
    expect(installed.permissions.network.domains).toEqual(['127.0.0.1', 'localhost']);
    expect(
      existsSync(
        join(server.directories.dataDirectory, 'extensions', 'installed', 'example', 'extension.json'),
      ),
    ).toBe(true);
  });

  it('registers what the extension provides: its tool, settings, panels, cards, forms, and the registry says who provides each', async () => {
    expect((await tools()).find((tool) => tool.name === 'city_weather')).toMatchObject({
      source: 'extension',
      mutating: false,
      policy: 'auto',
      enabled: true,
    });
    const schema = await server.call<SettingsSchemaResponse>('GET', '/api/settings/schema');
    // An extension's settings are a section of Preferences, labelled with its name (spec §4.9).
    expect(schema.sections.find((section) => section.id === 'example')).toMatchObject({
      page: 'preferences',
      label: { en: 'Example: city weather' },
    });
    expect(
      schema.settings.filter((setting) => setting.source_id === 'example').map((setting) => setting.key),
    ).toEqual(['example.endpoint', 'example.api_key', 'example.units']);
    const ui = await server.call<{ entries: { kind: string; id: string }[] }>('GET', '/api/extensions/ui');
    expect(ui.entries.map((entry) => `${entry.kind}:${entry.id}`)).toEqual([
      'panel:weather',
      'card:weather-summary',
      'form:trip',
    ]);
    const panels = await server.call<{ panels: { id: string; source: string }[] }>(
      'GET',
      '/api/extensions/panels',
    );
    expect(panels.panels).toEqual([
      expect.objectContaining({ id: 'example.weather', source: 'extension:example' }),
    ]);
    const action = await server.call<{ output: string }>('POST', '/api/extensions/actions', {
      source: 'extension:example',
      surface: { kind: 'panel', id: 'example.weather' },
      action: { command: 'packing-list', arguments: { city: 'Lyon', days: 2 } },
    });
    expect(action.output).toBe('Make a packing list for 2 days in Lyon. Check the weather there first.');
    const registry = await server.call<RegistryList>('GET', '/api/registry');
    expect(registry.entries).toEqual(
      expect.arrayContaining([
        {
          kind: 'tool',
          name: 'city_weather',
          source: 'extension:example',
          active: true,
          title: expect.any(String),
        },
        expect.objectContaining({ kind: 'workflow', name: 'city-report', source: 'extension:example' }),
        expect.objectContaining({ kind: 'intent', name: 'weather', source: 'extension:example' }),
        expect.objectContaining({ kind: 'knowledge', name: 'travel-guide', source: 'extension:example' }),
        expect.objectContaining({ kind: 'tool', name: 'read_file', source: 'builtin', active: true }),
        expect.objectContaining({ kind: 'parser', source: 'builtin', active: true }),
      ]),
    );
    expect(registry.sources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'builtin', enabled: true }),
        expect.objectContaining({ source: 'extension:example', enabled: true }),
      ]),
    );
  });

  it('a declarative HTTP tool is an ordinary tool: the model calls it, the response is trimmed, the secret goes only in the header', async () => {
    await server.call('PUT', '/api/settings/values', {
      layer: 'user',
      values: { 'example.endpoint': weather.url, 'example.api_key': SECRET },
    });
    weather.requests.length = 0;
    const { conversationId, runId, view } = await turn('weather in São Paulo?', [
      fakeToolCallReply('city_weather', { city: 'São Paulo' }),
      fakeTextReply('Sunny.'),
    ]);
    const [output] = toolOutputs((await view()).messages, 'city_weather');
    expect(JSON.parse(output ?? '')).toEqual({ temperature: 18, conditions: 'sunny', wind_kmh: 12 });
    expect(weather.requests).toHaveLength(1);
    expect(weather.requests[0]).toMatchObject({
      method: 'GET',
      url: '/weather/S%C3%A3o%20Paulo?units=metric',
    });
    expect(weather.requests[0]?.headers['x-api-key']).toBe(SECRET);
    const audit = await server.call<{ calls: { tool_name: string; outcome: string }[] }>(
      'GET',
      `/api/conversations/${conversationId}/tool-calls`,
    );
    expect(audit.calls).toEqual([expect.objectContaining({ tool_name: 'city_weather', outcome: 'success' })]);
    const events = await readEvents({
      url: server.url,
      token: server.token,
      conversationId,
      after: 0,
      until: (event: WorkbenchEvent) => isRunEnd(event, runId),
    });
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(JSON.stringify(audit)).not.toContain(SECRET);
  });

  it('a secret an endpoint echoes back is blanked out of the result, the events and the logs', async () => {
    weather.respond = (request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ current: { you_sent: request.headers['x-api-key'] } }));
    };
    try {
      const { conversationId, runId, view } = await turn('echo', [
        fakeToolCallReply('city_weather', { city: 'Oslo' }),
        fakeTextReply('done'),
      ]);
      const [output] = toolOutputs((await view()).messages, 'city_weather');
      expect(output).toBe('{"you_sent":"[secret]"}');
      const events = await readEvents({
        url: server.url,
        token: server.token,
        conversationId,
        after: 0,
        until: (event: WorkbenchEvent) => isRunEnd(event, runId),
      });
      expect(JSON.stringify(events)).not.toContain(SECRET);
      expect(server.logs.join('\n')).not.toContain(SECRET);
    } finally {
      weather.respond = undefined;
    }
  });

  it('refuses a host outside the allowed domains, directly and after a redirect, with a clear error', async () => {
    await server.call('PUT', '/api/settings/values', {
      layer: 'user',
      values: { 'example.endpoint': 'http://192.0.2.10:9' },
    });
    const direct = await turn('foreign', [
      fakeToolCallReply('city_weather', { city: 'Rome' }),
      fakeTextReply('no'),
    ]);
    const [refused] = toolOutputs((await direct.view()).messages, 'city_weather');
    expect(refused).toMatch(
      /^Error \[EXTENSION_DOMAIN_NOT_ALLOWED\]: The extension 'example' may not reach 192\.0\.2\.10/,
    );

    await server.call('PUT', '/api/settings/values', {
      layer: 'user',
      values: { 'example.endpoint': weather.url },
    });
    weather.requests.length = 0;
    weather.respond = (_request, response) => {
      response.statusCode = 302;
      response.setHeader('location', 'http://192.0.2.10:9/steal');
      response.end();
    };
    try {
      const redirected = await turn('redirect', [
        fakeToolCallReply('city_weather', { city: 'Rome' }),
        fakeTextReply('no'),
      ]);
      const [output] = toolOutputs((await redirected.view()).messages, 'city_weather');
      expect(output).toMatch(
        /^Error \[EXTENSION_DOMAIN_NOT_ALLOWED\]: .*192\.0\.2\.10 \(a redirect pointed there\)/,
      );
      expect(weather.requests).toHaveLength(1);
    } finally {
      weather.respond = undefined;
    }
  });

  it('is fail-closed: a broken extension is refused whole, with every reason listed, and nothing of it registers', async () => {
    const broken = await copyOfExample('broken');
    const manifest = JSON.parse(await readFile(join(broken, 'extension.json'), 'utf8'));
    manifest.id = 'broken';
    manifest.provides.tools.push('tools/missing.json');
    manifest.provides.panels.push('panels/bad-panel.json');
    await writeFile(join(broken, 'extension.json'), JSON.stringify(manifest));
    await writeFile(
      join(broken, 'panels', 'bad-panel.json'),
      JSON.stringify({
        id: 'bad',
        title: { en: 'Bad', 'zh-CN': '坏' },
        schema: { version: 1, root: { component: 'Blink' } },
      }),
    );
    const workflow = JSON.parse(await readFile(join(broken, 'workflows', 'city-report.json'), 'utf8'));
    workflow.steps[2].cases.short = 'nowhere';
    await writeFile(join(broken, 'workflows', 'city-report.json'), JSON.stringify(workflow));
    const tool = JSON.parse(await readFile(join(broken, 'tools', 'city-weather.json'), 'utf8'));
    tool.request.url = 'https://evil.example.net/{{city}}';
    tool.name = 'broken_weather';
    await writeFile(join(broken, 'tools', 'city-weather.json'), JSON.stringify(tool));

    const preview = await server.call<ExtensionPreview>('POST', '/api/extensions/preview', { path: broken });
    expect(preview.ok).toBe(false);
    const reasons = preview.problems.map((problem) => `${problem.path}: ${problem.message}`);
    expect(reasons).toEqual(
      expect.arrayContaining([
        'tools/missing.json: the file is missing',
        'tools/city-weather.json: the host evil.example.net is not among requires.network.domains',
        "workflows/city-report.json: no step 'nowhere'",
        expect.stringMatching(/^panels\/bad-panel\.json: /),
      ]),
    );
    const install = await server.request<{ error: { code: string; details: { problems: unknown[] } } }>(
      'POST',
      '/api/extensions',
      {
        body: { staging_id: preview.staging_id, accepted_permissions: manifest.requires },
      },
    );
    expect(install.status).toBe(422);
    expect(install.body.error.code).toBe('EXTENSION_INVALID');
    expect(install.body.error.details.problems.length).toBe(preview.problems.length);
    expect((await tools()).map((entry) => entry.name)).not.toContain('broken_weather');
    expect(
      (await server.call<ExtensionList>('GET', '/api/extensions')).extensions.map((entry) => entry.id),
    ).toEqual(['example']);

    const incompatible = await copyOfExample('incompatible');
    await writeFile(
      join(incompatible, 'extension.json'),
      JSON.stringify({ ...manifest, id: 'incompatible', apiVersion: '2.0.0', provides: {} }),
    );
    const refused = await server.call<ExtensionPreview>('POST', '/api/extensions/preview', {
      path: incompatible,
    });
    expect(refused.problems).toEqual([
      expect.objectContaining({ path: 'extension.json', pointer: 'apiVersion' }),
    ]);
  });

  it('installs from a .tgz and a .zip the same as from a folder; an archive with a path leaving the folder is refused', async () => {
    const folder = await copyOfExample('packed');
    const manifest = JSON.parse(await readFile(join(folder, 'extension.json'), 'utf8'));
    manifest.id = 'packed';
    manifest.settings = [];
    manifest.provides = { panels: ['panels/weather-panel.json'] };
    await writeFile(join(folder, 'extension.json'), JSON.stringify(manifest));
    const tgz = join(server.directories.root, 'packed.tgz');
    execFileSync('tar', ['czf', tgz, '-C', server.directories.root, 'packed']);
    const fromTgz = await server.call<ExtensionPreview>('POST', '/api/extensions/preview', { path: tgz });
    expect(fromTgz).toMatchObject({ ok: true, counts: { panels: 1 } });

    const zip = zipSync({
      'extension.json': new TextEncoder().encode(JSON.stringify(manifest)),
      'panels/weather-panel.json': await readFile(join(folder, 'panels', 'weather-panel.json')),
    });
    const form = new FormData();
    form.append('file', new File([zip], 'packed.zip', { type: 'application/zip' }));
    const uploaded = await server.request<ExtensionPreview>('POST', '/api/extensions/upload', { body: form });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.ok).toBe(true);
    const installed = await server.call<InstalledExtension>('POST', '/api/extensions', {
      staging_id: uploaded.body.staging_id,
      accepted_permissions: uploaded.body.permissions,
    });
    expect(installed.counts).toMatchObject({ panels: 1 });
    await server.call('DELETE', '/api/extensions/packed');

    const evil = zipSync({
      'extension.json': new Uint8Array([123, 125]),
      '../outside.txt': new Uint8Array([1]),
    });
    const evilForm = new FormData();
    evilForm.append('file', new File([evil], 'evil.zip'));
    const refused = await server.request<ExtensionPreview>('POST', '/api/extensions/upload', {
      body: evilForm,
    });
    expect(refused.body).toMatchObject({
      ok: false,
      problems: [{ path: '../outside.txt', message: 'a path that leaves the extension' }],
    });
    expect(existsSync(join(server.directories.dataDirectory, 'extensions', 'outside.txt'))).toBe(false);
  });

  it('hot-reloads an edited asset, and a bad edit keeps the last good version with the reason reported', async () => {
    const file = join(
      server.directories.dataDirectory,
      'extensions',
      'installed',
      'example',
      'tools',
      'city-weather.json',
    );
    const original = await readFile(file, 'utf8');
    const edited = JSON.parse(original);
    edited.description = 'Weather now, edited while running.';
    await writeFile(file, JSON.stringify(edited));
    await until(
      async () =>
        (await tools()).find((tool) => tool.name === 'city_weather')?.description === edited.description,
      'the edited description',
    );
    await writeFile(file, '{ "name": "city_weather", ');
    await until(
      async () =>
        (await server.call<InstalledExtension>('GET', '/api/extensions/example')).problems.length > 0,
      'the reload problem',
    );
    const state = await server.call<InstalledExtension>('GET', '/api/extensions/example');
    expect(state.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: 'tools/city-weather.json',
          message: expect.stringMatching(/^not valid JSON/),
        }),
      ]),
    );
    expect((await tools()).find((tool) => tool.name === 'city_weather')?.description).toBe(
      edited.description,
    );
    await writeFile(file, original);
    await until(
      async () =>
        (await server.call<InstalledExtension>('GET', '/api/extensions/example')).problems.length === 0,
      'the repaired file',
    );
  });

  it('disable unregisters everything, enable brings it back, and one switch turns a whole source off', async () => {
    await server.call('PATCH', '/api/extensions/example', { enabled: false });
    expect((await tools()).map((tool) => tool.name)).not.toContain('city_weather');
    const schema = await server.call<SettingsSchemaResponse>('GET', '/api/settings/schema');
    expect(schema.settings.some((setting) => setting.source_id === 'example')).toBe(false);
    const offered = await turn('hi', [fakeTextReply('hello')]);
    await offered.view();
    const names = (
      server.fake.chatRequests.at(-1)?.body as { tools: { function: { name: string } }[] }
    ).tools.map((tool) => tool.function.name);
    expect(names).not.toContain('city_weather');
    await server.call('PUT', '/api/registry/sources/extension:example', { enabled: true });
    expect((await tools()).find((tool) => tool.name === 'city_weather')?.enabled).toBe(true);

    const registry = await server.call<RegistryList>('PUT', '/api/registry/sources/builtin', {
      enabled: false,
    });
    expect(registry.sources.find((source) => source.source === 'builtin')?.enabled).toBe(false);
    const builtinTools = (await tools()).filter((tool) => tool.source === 'builtin');
    expect(builtinTools.length).toBeGreaterThan(0);
    expect(builtinTools.every((tool) => !tool.enabled)).toBe(true);
    expect((await tools()).find((tool) => tool.name === 'city_weather')?.enabled).toBe(true);
    await server.call('PUT', '/api/registry/sources/builtin', { enabled: true });
    expect((await tools()).find((tool) => tool.name === 'read_file')?.enabled).toBe(true);
  });

  it('a workflow command starts its workflow directly, no model deciding: tool, HITL card, branch, variable and prompt steps in order; a failing step stops it with its reason', async () => {
    await server.call('PUT', '/api/settings/values', {
      layer: 'user',
      values: { 'example.endpoint': weather.url, 'example.api_key': SECRET },
    });
    const commands = await server.call<{ commands: { name: string; source: string; template?: string }[] }>(
      'GET',
      '/api/commands',
    );
    // The composer fills `/city-report` with its parameters in as itself; sending it starts the run.
    expect(commands.commands.find((command) => command.name === 'city-report')).toMatchObject({
      source: 'extension',
      template: '/city-report city={{city}}',
    });
    const requestsBefore = server.fake.chatRequests.length;
    // The only model call is the workflow's own prompt step.
    const { conversationId, runId, view } = await turn('/city-report city=Paris', [
      fakeTextReply('Paris: sunny, 18 °C.'),
    ]);
    const { card } = await waitingCard(server, conversationId);
    expect(card.question).toBe('How long should the report on Paris be?');
    expect(card.choices.map((choice) => choice.id)).toEqual(['short', 'long']);
    await server.call('POST', `/api/conversations/${conversationId}/cards/${card.id}/answer`, {
      answer: { type: 'choice', choice_id: 'short' },
    });
    const settled = await view();
    const [output] = toolOutputs(settled.messages, 'workflow_city_report');
    expect(output).toContain("The workflow 'City weather report' finished.");
    const order = [
      '1. Look up the weather: done',
      '2. Ask for the length: length = short',
      "3. pick: 'short' → short",
      '4. short: style = in one line',
      '5. Write the report: Paris: sunny, 18 °C.',
    ];
    expect(order.map((line) => output?.indexOf(line))).toEqual(
      [...order.map((line) => output?.indexOf(line) ?? -1)].sort((a, b) => a - b),
    );
    expect(order.every((line) => output?.includes(line))).toBe(true);
    // The answer is the workflow's result; the conversation keeps the command as typed.
    const answerText = (settled.messages.at(-1)?.parts ?? [])
      .flatMap((part) => (part.type === 'text' ? [part.text] : []))
      .join('');
    expect(answerText).toContain("The workflow 'City weather report' finished.");
    const typed = settled.messages
      .filter((message) => message.role === 'user')
      .flatMap((message) => message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])));
    expect(typed).toEqual(['/city-report city=Paris']);
    expect(server.fake.chatRequests.length - requestsBefore).toBe(1);
    const prompt = server.fake.chatRequests.at(-1)?.body as { messages: { content: unknown }[] };
    expect(JSON.stringify(prompt.messages)).toContain('Write a weather report for Paris in one line.');
    const board = await server.call<{ plan: { steps: { id: string; status: string }[] } }>(
      'GET',
      `/api/conversations/${conversationId}/planboard`,
    );
    expect(board.plan.steps.map((step) => `${step.id}:${step.status}`)).toEqual([
      'weather:done',
      'length:done',
      'pick:done',
      'short:done',
      'long:skipped',
      'write:done',
    ]);
    // Each step is the run's current step in its events, in order; the phase stays a RUN_PHASES value.
    const stepEvents = async (conversation: string, run: string) =>
      (
        await readEvents({
          url: server.url,
          token: server.token,
          conversationId: conversation,
          after: 0,
          until: (event: WorkbenchEvent) => isRunEnd(event, run),
        })
      ).flatMap((event) =>
        event.type === 'run.step' && event.run_id === run
          ? [
              `${event.payload.index}/${event.payload.count} ${event.payload.step_id}:${event.payload.status}${event.payload.code === undefined ? '' : ` ${event.payload.code}`}`,
            ]
          : [],
      );
    expect(await stepEvents(conversationId, runId)).toEqual([
      '1/6 weather:running',
      '1/6 weather:done',
      '2/6 length:running',
      '2/6 length:done',
      '3/6 pick:running',
      '3/6 pick:done',
      '4/6 short:running',
      '4/6 short:done',
      '5/6 write:running',
      '5/6 write:done',
    ]);

    await server.call('PUT', '/api/settings/values', {
      layer: 'user',
      values: { 'example.endpoint': 'http://192.0.2.10:9' },
    });
    const failed = await turn('/city-report Rome', []);
    const failedView = await failed.view();
    const [stopped] = toolOutputs(failedView.messages, 'workflow_city_report');
    expect(stopped).toMatch(
      /^Error \[WORKFLOW_STEP_FAILED\]: The workflow 'city-report' stopped at step 'weather': Error \[EXTENSION_DOMAIN_NOT_ALLOWED\]/,
    );
    // Nothing after the failing step ran: no card, no prompt to the model.
    expect(stopped).not.toContain('Ask for the length');
    expect(await stepEvents(failed.conversationId, failed.runId)).toEqual([
      '1/6 weather:running',
      '1/6 weather:failed WORKFLOW_STEP_FAILED',
    ]);
    expect(server.fake.chatRequests.length - requestsBefore).toBe(1);
    const failedBoard = await server.call<{
      plan: { steps: { id: string; status: string; note?: string }[] };
    }>('GET', `/api/conversations/${failed.conversationId}/planboard`);
    expect(failedBoard.plan.steps[0]).toMatchObject({
      id: 'weather',
      status: 'skipped',
      note: 'failed: WORKFLOW_STEP_FAILED',
    });
    expect(failedBoard.plan.steps.slice(1).map((step) => step.status)).toEqual([
      'skipped',
      'skipped',
      'skipped',
      'skipped',
      'skipped',
    ]);
    await server.call('PUT', '/api/settings/values', {
      layer: 'user',
      values: { 'example.endpoint': weather.url },
    });
  });

  it('free input on a HITL card that an intent asks for starts its workflow; a missing slot is asked on a card', async () => {
    const { conversationId, runId } = await turn('plan my trip', [
      fakeAskUserReply({
        question: 'Where to?',
        kind: 'choice',
        choices: [
          { id: 'a', label: 'Coast', impact: 'sea' },
          { id: 'b', label: 'Mountains', impact: 'hills' },
        ],
        allowFreeInput: true,
      }),
      fakeToolCallReply('workflow_city_report', { city: 'Oslo' }),
      fakeTextReply('Oslo: cold.'),
      fakeTextReply('Report done.'),
    ]);
    const { card } = await waitingCard(server, conversationId);
    const routed = await server.call<{ card: { status: string; resolution: unknown }; new_run_id: string }>(
      'POST',
      `/api/conversations/${conversationId}/cards/${card.id}/answer`,
      { answer: { type: 'text', text: 'give me a weather report for Oslo' } },
    );
    expect(routed.card.status).toBe('superseded');
    expect(routed.card.resolution).toMatchObject({
      route: { path: 'new_request', by: 'rule', reason: "matches the intent 'weather' of extension:example" },
    });
    expect((await server.call<{ status: string }>('GET', `/api/runs/${runId}`)).status).toBe('cancelled');
    const lengthCard = await waitingCard(server, conversationId);
    await server.call('POST', `/api/conversations/${conversationId}/cards/${lengthCard.card.id}/answer`, {
      answer: { type: 'choice', choice_id: 'long' },
    });
    const view = await server.settled(conversationId, routed.new_run_id);
    const request = view.messages.at(-2)?.parts[0];
    expect(request).toMatchObject({
      type: 'text',
      text: expect.stringContaining('call workflow_city_report) with city = Oslo'),
    });
    expect(toolOutputs(view.messages, 'workflow_city_report')[0]).toContain('in one paragraph');

    // Called without the slot (say, by the model): the intent's question is asked first.
    const missing = await turn('report please', [
      fakeToolCallReply('workflow_city_report', {}),
      fakeTextReply('Bergen: rain.'),
      fakeTextReply('ok'),
    ]);
    const asked = await waitingCard(server, missing.conversationId);
    expect(asked.card).toMatchObject({ kind: 'input', question: 'Which city? / 哪个城市？' });
    await server.call('POST', `/api/conversations/${missing.conversationId}/cards/${asked.card.id}/answer`, {
      answer: { type: 'text', text: 'Bergen' },
    });
    const length = await waitingCard(server, missing.conversationId);
    expect(length.card.question).toBe('How long should the report on Bergen be?');
    await server.call('POST', `/api/conversations/${missing.conversationId}/cards/${length.card.id}/answer`, {
      answer: { type: 'choice', choice_id: 'short' },
    });
    expect(toolOutputs((await missing.view()).messages, 'workflow_city_report')[0]).toContain(
      'city: Bergen (asked)',
    );
  });

  it('a / message no skill takes is recognised by an intent: the model gets its request, the conversation keeps what was typed', async () => {
    const recognised = await turn('/weather report for Oslo', [fakeTextReply('I will run it.')]);
    const view = await recognised.view();
    expect(view.messages.at(-2)?.parts[0]).toMatchObject({ type: 'text', text: '/weather report for Oslo' });
    expect(lastUserText(server.fake.chatRequests.at(-1)?.body)).toContain(
      'call workflow_city_report) with city = Oslo',
    );
    // No intent matches: as with no extension (T0), the agent says there is no such skill.
    const plain = await turn('/no such thing at all', []);
    expect((await plain.view()).messages.at(-1)?.parts[0]).toMatchObject({
      type: 'error',
      error: { code: 'SKILL_NOT_FOUND' },
    });
  });

  it('a run in flight whose tool is uninstalled fails that step with EXTENSION_REMOVED, visibly', async () => {
    await server.call('PUT', '/api/settings/values', {
      layer: 'user',
      values: { 'example.endpoint': weather.url, 'example.api_key': SECRET },
    });
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived: (() => void) | undefined;
    const first = new Promise<void>((resolve) => (arrived = resolve));
    weather.respond = async (_request, response) => {
      arrived?.();
      await held;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ current: { temperature: 3 } }));
    };
    try {
      const { view } = await turn('two cities', [
        fakeToolCallReply('city_weather', { city: 'Bergen' }),
        fakeToolCallReply('city_weather', { city: 'Tromsø' }),
        fakeTextReply('one of them'),
      ]);
      await first;
      await server.call('DELETE', '/api/extensions/example');
      release?.();
      const outputs = toolOutputs((await view()).messages, 'city_weather');
      expect(outputs[0]).toBe('{"temperature":3}');
      expect(outputs[1]).toMatch(
        /^Error \[EXTENSION_REMOVED\]: The tool 'city_weather' is no longer available/,
      );
    } finally {
      weather.respond = undefined;
    }
    expect((await tools()).map((tool) => tool.name)).not.toContain('city_weather');
    expect(existsSync(join(server.directories.dataDirectory, 'extensions', 'installed', 'example'))).toBe(
      false,
    );
    const registry = await server.call<RegistryList>('GET', '/api/registry');
    expect(registry.entries.filter((entry) => entry.source === 'extension:example')).toEqual([]);
  });

  it('a knowledge pack is searched from every project under the extension source; disabling or uninstalling takes it out', async () => {
    const listed = await server.call<ExtensionList>('GET', '/api/extensions');
    if (!listed.extensions.some((entry) => entry.id === 'example')) await installExtension(server);
    const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Trips' });
    const search = async () =>
      (
        await server.call<RetrievalResult>('POST', '/api/knowledge/search', {
          query: 'waterproof shell',
          project_id: project.id,
          top_k: 5,
        })
      ).hits;
    await until(async () => (await search()).length > 0, 'the knowledge pack to be indexed');
    const [hit] = await search();
    expect(hit?.text).toContain('waterproof shell');
    expect(hit?.citation).toMatchObject({ source: 'extension', source_id: 'example/knowledge/packing.md' });
    // The model reads the pack's document like any other (read_document / the viewer).
    const read = await server.call<{ blocks: { block: { type: string } }[] }>(
      'GET',
      `/api/knowledge/read/${hit?.citation.knowledge_id ?? ''}`,
    );
    expect(read.blocks.length).toBeGreaterThan(0);

    await server.call('PATCH', '/api/extensions/example', { enabled: false });
    await until(async () => (await search()).length === 0, 'the pack to leave the index');
    await server.call('PATCH', '/api/extensions/example', { enabled: true });
    await until(async () => (await search()).length > 0, 'the pack to come back');
    await server.call('DELETE', '/api/extensions/example');
    await until(async () => (await search()).length === 0, 'the uninstalled pack to leave the index');
  });

  it('an installed extension loads again after a restart; after uninstall nothing of it comes back', async () => {
    await installExtension(server);
    await server.restart();
    expect(
      (await server.call<ExtensionList>('GET', '/api/extensions')).extensions.map((entry) => entry.id),
    ).toEqual(['example']);
    expect((await tools()).find((tool) => tool.name === 'city_weather')?.source).toBe('extension');
    await server.call('DELETE', '/api/extensions/example');
    await server.restart();
    expect((await server.call<ExtensionList>('GET', '/api/extensions')).extensions).toEqual([]);
    expect((await tools()).map((tool) => tool.name)).not.toContain('city_weather');
    await mkdir(join(server.directories.root, 'unused'), { recursive: true });
  });
});
