import type { AgentProfile, ConversationView } from '@youyou/contracts';
import { fakeAskUserReply, fakeTextReply, fakeToolCallReply, type RecordedRequest } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { FORMAT_CARD } from './support/hitl.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

interface ChatBody {
  tools?: { function: { name: string; description?: string } }[];
}
const toolsOf = (request: RecordedRequest | undefined) =>
  ((request?.body as ChatBody | undefined)?.tools ?? []).map((tool) => tool.function);

describe.each(DATABASE_KINDS)('profile HITL policy (%s)', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  const newProfile = (hitl: AgentProfile['hitl']) =>
    server.call<AgentProfile>('POST', '/api/profiles', {
      name: `Profile ${Math.random().toString(36).slice(2, 8)}`,
      systemPrompt: '',
      model: { router: 'chat' },
      parameters: {},
      tools: { allow: ['*'], deny: [], confirm: [] },
      context: { policy: 'default' },
      hitl,
      budget: {},
    });
  const converse = async (profileId: string, text: string): Promise<ConversationView> => {
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {
      profile_id: profileId,
    });
    const sent = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      { text },
    );
    return server.settled(conversation.id, sent.run.id);
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('a profile hitl.timeoutSec expires an unanswered card; the run goes on and the model gets "No answer"', async () => {
    const profile = await newProfile({ askOnAmbiguity: true, timeoutSec: 1 });
    server.fake.push(fakeAskUserReply({ ...FORMAT_CARD }), fakeTextReply('Going on without an answer.'));
    const view = await converse(profile.id, 'Write the report');
    const hitl = view.messages[1]?.parts.find((part) => part.type === 'hitl');
    expect(hitl).toMatchObject({ card_status: 'expired' });
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain('No answer');
    expect(JSON.stringify(view.messages[1])).toContain('Going on without an answer.');
  });

  it('a sub-agent of such a profile has its cards expire by the same bound', async () => {
    const profile = await newProfile({ askOnAmbiguity: true, timeoutSec: 1 });
    server.fake.push(
      fakeToolCallReply('spawn_agent', { task: 'Pick a format', tools: ['ask_user'] }),
      fakeAskUserReply({ ...FORMAT_CARD }),
      fakeTextReply('Child decided alone.'),
      fakeTextReply('Parent done.'),
    );
    const view = await converse(profile.id, 'Delegate it');
    const requests = JSON.stringify(server.fake.chatRequests.slice(-2).map((request) => request.body));
    expect(requests).toContain('No answer');
    expect(JSON.stringify(view)).toContain('expired');
  });

  it('hitl.askOnAmbiguity: true offers ask_user with "ask when ambiguous"; false does not offer it', async () => {
    const asking = await newProfile({ askOnAmbiguity: true, timeoutSec: null });
    server.fake.push(fakeTextReply('Sure.'));
    await converse(asking.id, 'Do the ambiguous thing');
    const offered = toolsOf(server.fake.chatRequests.at(-1)).find((tool) => tool.name === 'ask_user');
    expect(offered?.description).toContain('ambiguous');

    const silent = await newProfile({ askOnAmbiguity: false, timeoutSec: null });
    server.fake.push(fakeTextReply('Assuming Markdown.'));
    await converse(silent.id, 'Do the ambiguous thing');
    expect(toolsOf(server.fake.chatRequests.at(-1)).map((tool) => tool.name)).not.toContain('ask_user');
  });
});
