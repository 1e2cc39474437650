import type {
  AgentProfile,
  Artifact,
  CommandDescriptor,
  ConversationMessage,
  DocumentTemplateInfo,
  ProfileTemplate,
  RegistryList,
} from '@youyou/contracts';
import { fakeTextReply, fakeToolCallReply, type RecordedRequest } from '@youyou/testing';
import mammoth from 'mammoth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { installExtension } from './support/extensions.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function toolNames(request: RecordedRequest | undefined): string[] {
  const tools = (request?.body as { tools?: { function: { name: string } }[] } | undefined)?.tools ?? [];
  return tools.map((tool) => tool.function.name);
}

function toolOutput(messages: readonly ConversationMessage[]): string {
  const part = (messages.at(-1)?.parts ?? []).find((item) => item.type === 'tool_result');
  return part?.type === 'tool_result' ? part.output : '';
}

describe.each(DATABASE_KINDS)(
  "an extension's prompts, profile templates and document templates on %s",
  (kind) => {
    let database: TestDatabase;
    let server: TestServer;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      server = await startTestServer({ database, server: { mutatingToolPolicy: 'auto' } });
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    async function turn(text: string, replies: Parameters<TestServer['fake']['push']>) {
      server.fake.push(...replies);
      const { id } = await server.call<{ id: string }>('POST', '/api/conversations', { title: 'Trip' });
      const sent = await server.call<{ run: { id: string } }>('POST', `/api/conversations/${id}/messages`, {
        text,
      });
      return { conversationId: id, view: await server.settled(id, sent.run.id) };
    }

    it('with no extension installed the template tool is not offered to the model and no template is listed (T0)', async () => {
      await turn('hello', [fakeTextReply('hi')]);
      expect(toolNames(server.fake.chatRequests.at(-1))).not.toContain('create_from_template');
      expect(await server.call('GET', '/api/document-templates')).toEqual({ templates: [] });
      expect(await server.call('GET', '/api/profile-templates')).toEqual({ templates: [] });
      await installExtension(server);
    });

    it("an extension's prompt is a / command that fills the composer with the prompt's text", async () => {
      const { commands } = await server.call<{ commands: CommandDescriptor[] }>('GET', '/api/commands');
      const prompt = commands.find((command) => command.name === 'weather-reporter');
      expect(prompt).toMatchObject({
        source: 'extension',
        source_id: 'example',
        action: 'macro',
        description: {
          en: 'You are a weather reporter. Report the current conditions first, then one pract…',
        },
        parameters: [],
      });
      expect(prompt?.template).toContain(
        'Never invent numbers: use only what the city_weather tool returned.',
      );
      const registry = await server.call<RegistryList>('GET', '/api/registry');
      expect(registry.entries).toContainEqual(
        expect.objectContaining({
          kind: 'document_template',
          name: 'trip-letter',
          source: 'extension:example',
        }),
      );
    });

    it("a profile is created from an extension's profile template, under another name if asked; an unknown template is NOT_FOUND", async () => {
      const { templates } = await server.call<{ templates: ProfileTemplate[] }>(
        'GET',
        '/api/profile-templates',
      );
      expect(templates).toEqual([
        expect.objectContaining({
          id: 'example/weather-reporter',
          source: 'extension:example',
          profile: expect.objectContaining({ name: 'Weather reporter' }),
        }),
      ]);
      const made = await server.call<AgentProfile>('POST', '/api/profiles/from-template', {
        template_id: 'example/weather-reporter',
      });
      expect(made).toMatchObject({
        name: 'Weather reporter',
        builtin: false,
        systemPrompt: 'You are a weather reporter. Use the city_weather tool; never invent numbers.',
        tools: { allow: ['city_weather', 'current_time'] },
      });
      const renamed = await server.call<AgentProfile>('POST', '/api/profiles/from-template', {
        template_id: 'example/weather-reporter',
        name: 'Oslo weather',
      });
      expect(renamed.name).toBe('Oslo weather');
      const { profiles } = await server.call<{ profiles: AgentProfile[] }>('GET', '/api/profiles');
      expect(profiles.map((profile) => profile.id)).toEqual(expect.arrayContaining([made.id, renamed.id]));
      const unknown = await server.request<{ error: { code: string } }>(
        'POST',
        '/api/profiles/from-template',
        {
          body: { template_id: 'example/nothing' },
        },
      );
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
    });

    it('the agent creates a Markdown artifact from a document template, its placeholders filled', async () => {
      const { templates } = await server.call<{ templates: DocumentTemplateInfo[] }>(
        'GET',
        '/api/document-templates',
      );
      expect(templates).toEqual([
        {
          id: 'example/trip-brief',
          source: 'extension:example',
          title: 'Trip brief',
          description: 'A one-page brief for a trip to a city — the weather and what to pack.',
          format: 'markdown',
          variables: ['city', 'weather', 'packing'],
        },
        expect.objectContaining({ id: 'example/trip-letter', format: 'docx' }),
      ]);
      const { conversationId, view } = await turn('a brief for Oslo', [
        fakeToolCallReply('create_from_template', {
          template: 'example/trip-brief',
          values: { city: 'Oslo', weather: '4 °C, rain', packing: '- a raincoat\n- boots' },
        }),
        fakeTextReply('Done.'),
      ]);
      const request = server.fake.chatRequests.at(-2);
      expect(toolNames(request)).toContain('create_from_template');
      // The system prompt lists the templates, so the model knows what it can make.
      expect(JSON.stringify(request?.body)).toContain(
        'example/trip-letter: Trip letter (docx; placeholders: city, recipient, weather, date)',
      );
      expect(toolOutput(view.messages)).toContain('Created artifact "Trip brief.md"');
      const { artifacts } = await server.call<{ artifacts: Artifact[] }>(
        'GET',
        `/api/conversations/${conversationId}/artifacts`,
      );
      const brief = artifacts.find((artifact) => artifact.title === 'Trip brief.md') as Artifact;
      expect(brief.kind).toBe('markdown');
      const content = await server.call<{ content: string }>('GET', `/api/artifacts/${brief.id}/versions/1`);
      expect(content.content).toBe(
        '# Trip brief: Oslo\n\n**Weather:** 4 °C, rain\n\n## Pack\n\n- a raincoat\n- boots\n',
      );
    });

    it('the agent creates a Word document from a docx template; a missing value is named and nothing is made', async () => {
      const { conversationId, view } = await turn('a letter about Oslo', [
        fakeToolCallReply('create_from_template', {
          template: 'example/trip-letter',
          title: 'Letter to Ana',
          values: { city: 'Oslo', recipient: 'Ana', weather: 'cold and clear', date: 'Friday' },
        }),
        fakeTextReply('Written.'),
      ]);
      expect(toolOutput(view.messages)).toContain('Created the Word document "Letter to Ana.docx"');
      const { artifacts } = await server.call<{ artifacts: Artifact[] }>(
        'GET',
        `/api/conversations/${conversationId}/artifacts`,
      );
      const letter = artifacts.find((artifact) => artifact.title === 'Letter to Ana.docx') as Artifact;
      expect(letter).toMatchObject({ kind: 'upload', media_type: DOCX });
      const file = await server.request<string>('GET', `/api/uploads/${letter.id}/content`);
      expect(file.headers.get('content-type')).toBe(DOCX);
      const bytes = await fetch(`${server.url}/api/uploads/${letter.id}/content`, {
        headers: { authorization: `Bearer ${server.token}` },
      }).then(async (response) => Buffer.from(await response.arrayBuffer()));
      const text = (await mammoth.extractRawText({ buffer: bytes })).value;
      expect(text).toContain('A trip to Oslo');
      expect(text).toContain('Dear Ana,');
      expect(text).toContain('We are off to Oslo. The forecast says: cold and clear');
      expect(text).toContain('Leave: Friday');

      const missing = await turn('another letter', [
        fakeToolCallReply('create_from_template', {
          template: 'example/trip-letter',
          values: { city: 'Rome' },
        }),
        fakeTextReply('I need more.'),
      ]);
      expect(toolOutput(missing.view.messages)).toBe(
        'Error [INVALID_INPUT]: The template example/trip-letter needs a value for: recipient, weather, date.',
      );
      const unknown = await turn('a poem', [
        fakeToolCallReply('create_from_template', { template: 'poem' }),
        fakeTextReply('None.'),
      ]);
      expect(toolOutput(unknown.view.messages)).toContain(
        "No document template has id 'poem'. Templates: example/trip-brief",
      );
    });
  },
);
