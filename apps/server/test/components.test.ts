import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fakeTextReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/databases.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

interface Listing {
  components: { kind: string; name: string; layer: string; enabled: boolean; overriddenBy?: string }[];
}

/** The component manager over the agent's API; the file channel does not depend on the database. */
describe('component management over HTTP', () => {
  let database: TestDatabase;
  let server: TestServer;
  let projectId: string;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    server = await startTestServer({ database });
    const directory = join(server.directories.root, 'project-with-layer');
    await mkdir(directory, { recursive: true });
    projectId = (await server.call<{ id: string }>('POST', '/api/projects', { name: 'Layered', directory }))
      .id;
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('creates, reads, edits and deletes a skill; a project skill of the same name overrides the global one', async () => {
    await server.call('POST', '/api/components', {
      kind: 'skill',
      name: 'tone',
      layer: 'global',
      frontMatter: { description: 'Global tone.' },
      body: 'Be formal.',
    });
    await server.call('POST', `/api/components?project_id=${projectId}`, {
      kind: 'skill',
      name: 'tone',
      layer: 'project',
      front_matter: { description: 'Project tone.' },
      body: 'Be playful.',
    });
    const listing = await server.call<Listing>('GET', `/api/components?project_id=${projectId}`);
    expect(listing.components.filter((entry) => entry.name === 'tone')).toEqual([
      expect.objectContaining({ layer: 'project', enabled: true }),
      expect.objectContaining({ layer: 'global', overriddenBy: 'project', enabled: false }),
    ]);
    const edited = await server.call<{ body: string }>(
      'PATCH',
      `/api/components/skill/tone?layer=project&project_id=${projectId}`,
      {
        body: 'Be very playful.',
      },
    );
    expect(edited.body.trim()).toBe('Be very playful.');
    const read = await server.call<{ body: string; entryFile: string }>(
      'GET',
      `/api/components/skill/tone?layer=project&project_id=${projectId}`,
    );
    expect(read).toMatchObject({ entryFile: 'index.md' });
    expect(read).not.toHaveProperty('directory');
    expect(
      (await server.request('DELETE', `/api/components/skill/tone?layer=project&project_id=${projectId}`))
        .status,
    ).toBe(204);
    const after = await server.call<Listing>('GET', `/api/components?project_id=${projectId}`);
    expect(after.components.filter((entry) => entry.name === 'tone')).toEqual([
      expect.objectContaining({ layer: 'global', enabled: true }),
    ]);
  });

  it('a file plugin is turned off and on; the next run sees the change', async () => {
    await server.call('POST', '/api/components', {
      kind: 'plugin',
      name: 'stamp',
      layer: 'global',
      front_matter: { display_name: 'Stamp', hooks: { TurnStart: { command: './stamp.sh' } } },
      body: 'Adds a stamp to the prompt.',
      files: [
        {
          path: 'stamp.sh',
          content:
            '#!/bin/sh\ncat > /dev/null\necho \'{"data":{"dynamic_sections":["STAMPED BY THE PLUGIN"]}}\'\n',
        },
      ],
    });
    server.fake.push(fakeTextReply('one'));
    const first = await sendFirstMessage(server, 'with the plugin');
    await server.settled(first.conversationId, first.runId);
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain('STAMPED BY THE PLUGIN');

    expect(
      (await server.request('PUT', '/api/components/plugin/stamp/enabled', { body: { enabled: false } }))
        .status,
    ).toBe(204);
    const listing = await server.call<Listing>('GET', '/api/components');
    expect(listing.components.find((entry) => entry.name === 'stamp')).toMatchObject({ enabled: false });
    server.fake.push(fakeTextReply('two'));
    const second = await sendFirstMessage(server, 'without the plugin');
    await server.settled(second.conversationId, second.runId);
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).not.toContain('STAMPED BY THE PLUGIN');

    expect(
      (await server.request('POST', '/api/components/plugin/stamp/toggle', { body: { enabled: null } }))
        .status,
    ).toBe(204);
    expect(
      (await server.call<Listing>('GET', '/api/components')).components.find(
        (entry) => entry.name === 'stamp',
      ),
    ).toMatchObject({
      enabled: true,
    });
  });

  it('a tool added between two runs of one conversation is offered in the second', async () => {
    server.fake.push(fakeTextReply('one'));
    const first = await sendFirstMessage(server, 'before the tool');
    await server.settled(first.conversationId, first.runId);
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).not.toContain('between_runs');

    await server.call('POST', '/api/components', {
      kind: 'tool',
      name: 'between_runs',
      layer: 'global',
      front_matter: {
        parameters: [{ name: 'text', type: 'string', required: true }],
        execution: { command: './between.sh' },
      },
      body: 'Added between two runs.',
      files: [{ path: 'between.sh', content: '#!/bin/sh\nread input\necho done\n' }],
    });
    server.fake.push(fakeTextReply('two'));
    const second = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${first.conversationId}/messages`,
      { text: 'after the tool' },
    );
    await server.settled(first.conversationId, second.run.id);
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain('between_runs');
  });

  it('an invalid entry is refused before anything is written', async () => {
    const response = await server.request('POST', '/api/components', {
      body: {
        kind: 'tool',
        name: 'broken',
        layer: 'global',
        front_matter: { execution: {} },
        body: 'No command.',
      },
    });
    expect(response.status).toBe(400);
    const listing = await server.call<Listing>('GET', '/api/components');
    expect(listing.components.some((entry) => entry.name === 'broken')).toBe(false);
  });
});
