import { mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  MAX_FILE_BYTES,
  MAX_IMAGE_BYTES,
  type AgentErrorCode,
  type AgentEvent,
  type ContentBlock,
  type ModelCapabilities,
  type UserInput,
} from '@youyou/agent';
import { ScriptedProvider, scriptedModel, textReply } from '@youyou/testing';
import { describe, expect, it } from 'vitest';
import { collect, testAgent, type TestAgent } from './helpers.ts';

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);
const GIF = new TextEncoder().encode('GIF89a\x01\x00\x01\x00');
const WEBP = Uint8Array.from([...ascii('RIFF'), 26, 0, 0, 0, ...ascii('WEBP'), ...ascii('VP8 ')]);
/** A PDF header and its customary binary comment: not UTF-8, so it can only travel as a document. */
const PDF_BYTES = Uint8Array.from([...ascii('%PDF-1.7\n%'), 0xe2, 0xe3, 0xcf, 0xd3, 0x0a]);

function ascii(text: string): number[] {
  return [...text].map((character) => character.charCodeAt(0));
}

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** An agent whose only model has the given capabilities (all on by default). */
async function agentWith(capabilities: Partial<ModelCapabilities> = {}): Promise<TestAgent> {
  const provider = new ScriptedProvider({
    models: [
      scriptedModel('m', {
        capabilities: { toolUse: true, vision: true, streaming: true, documents: true, ...capabilities },
      }),
    ],
  });
  return testAgent({ provider });
}

/** Sends `input`, expects a reply, and returns the user message content the provider received. */
async function sentContent(agent: TestAgent, input: UserInput): Promise<readonly ContentBlock[]> {
  agent.provider.enqueue(textReply('seen'));
  const session = await agent.agent.newSession();
  const events = await collect(session.send(input));
  expect(events.at(-1)).toMatchObject({ type: 'TurnComplete', status: 'completed' });
  const user = agent.provider.requests[0]?.messages.find((message) => message.role === 'user');
  if (user?.role !== 'user') throw new Error('the provider received no user message');
  return user.content;
}

/** Sends `input` and checks it was refused before anything reached the model or the context. */
async function expectRefused(
  agent: TestAgent,
  input: UserInput,
  code: AgentErrorCode,
): Promise<AgentEvent[]> {
  const session = await agent.agent.newSession();
  const events = await collect(session.send(input));
  const [error, last] = events.slice(-2);
  expect(error).toMatchObject({ type: 'Error', fatal: true, error: { code } });
  expect(last).toMatchObject({ type: 'TurnComplete', status: 'failed', error: { code } });
  expect(agent.provider.requests).toHaveLength(0);
  expect(session.messages).toHaveLength(0);
  await session.close();
  return events;
}

describe('images (spec §8)', () => {
  it('an image by path inside the workspace is sent as base64 with its format', async () => {
    const agent = await agentWith();
    await writeFile(path.join(agent.workspace.cwd, 'shot.png'), PNG);
    const content = await sentContent(agent, [
      { type: 'text', text: 'what is this?' },
      { type: 'image', path: 'shot.png' },
    ]);
    expect(content[1]).toMatchObject({ type: 'image', mediaType: 'image/png', data: base64(PNG) });
  });

  it('a PNG named .jpg is sent as image/png', async () => {
    const agent = await agentWith();
    await writeFile(path.join(agent.workspace.cwd, 'photo.jpg'), PNG);
    const content = await sentContent(agent, [{ type: 'image', path: 'photo.jpg' }]);
    expect(content[0]).toMatchObject({ type: 'image', mediaType: 'image/png' });
  });

  it.each([
    ['image/png', PNG],
    ['image/jpeg', JPEG],
    ['image/gif', GIF],
    ['image/webp', WEBP],
  ] as const)('%s is detected from the bytes of an undeclared image', async (mediaType, bytes) => {
    const agent = await agentWith();
    const content = await sentContent(agent, [{ type: 'image', data: bytes }]);
    expect(content[0]).toEqual({ type: 'image', mediaType, data: base64(bytes) });
  });

  it('an image given as base64 text is sent with the format of its bytes', async () => {
    const agent = await agentWith();
    const content = await sentContent(agent, [{ type: 'image', data: base64(JPEG) }]);
    expect(content[0]).toEqual({ type: 'image', mediaType: 'image/jpeg', data: base64(JPEG) });
  });

  it('an image given as a Uint8Array view sends only the bytes of the view', async () => {
    const agent = await agentWith();
    const backing = new Uint8Array(PNG.length + 8).fill(0xaa);
    backing.set(PNG, 4);
    const content = await sentContent(agent, [{ type: 'image', data: backing.subarray(4, 4 + PNG.length) }]);
    expect(content[0]).toEqual({ type: 'image', mediaType: 'image/png', data: base64(PNG) });
  });

  it('an image given as a data URL is sent without the data: prefix', async () => {
    const agent = await agentWith();
    const content = await sentContent(agent, [
      { type: 'image', data: `data:image/gif;base64,${base64(GIF)}` },
    ]);
    expect(content[0]).toEqual({ type: 'image', mediaType: 'image/gif', data: base64(GIF) });
  });

  it('a declared mediaType that matches the bytes is accepted', async () => {
    const agent = await agentWith();
    const content = await sentContent(agent, [{ type: 'image', data: WEBP, mediaType: 'image/webp' }]);
    expect(content[0]).toMatchObject({ type: 'image', mediaType: 'image/webp' });
  });

  it('a declared mediaType that contradicts the bytes fails with INVALID_INPUT', async () => {
    const agent = await agentWith();
    const events = await expectRefused(
      agent,
      [{ type: 'image', data: PNG, mediaType: 'image/jpeg' }],
      'INVALID_INPUT',
    );
    expect(JSON.stringify(events.at(-1))).toContain('image/png');
  });

  it('an image larger than 20 MB given as bytes fails with FILE_TOO_LARGE', async () => {
    const agent = await agentWith();
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(PNG);
    await expectRefused(agent, [{ type: 'image', data: big }], 'FILE_TOO_LARGE');
  });

  it('an image larger than 20 MB given as base64 fails with FILE_TOO_LARGE', async () => {
    const agent = await agentWith();
    const big = new Uint8Array(MAX_IMAGE_BYTES + 3);
    big.set(PNG);
    await expectRefused(agent, [{ type: 'image', data: base64(big) }], 'FILE_TOO_LARGE');
  });

  it('an image file larger than 20 MB fails with FILE_TOO_LARGE', async () => {
    const agent = await agentWith();
    const file = path.join(agent.workspace.cwd, 'huge.png');
    await writeFile(file, PNG);
    await truncate(file, MAX_IMAGE_BYTES + 1);
    await expectRefused(agent, [{ type: 'image', path: 'huge.png' }], 'FILE_TOO_LARGE');
  });

  it('an image of exactly 20 MB is accepted', async () => {
    const agent = await agentWith();
    const file = path.join(agent.workspace.cwd, 'limit.png');
    await writeFile(file, PNG);
    await truncate(file, MAX_IMAGE_BYTES);
    const content = await sentContent(agent, [{ type: 'image', path: 'limit.png' }]);
    expect(content[0]).toMatchObject({ type: 'image', mediaType: 'image/png' });
  });

  it('bytes that are no PNG, JPEG, GIF or WebP fail with INVALID_INPUT', async () => {
    const agent = await agentWith();
    await expectRefused(
      agent,
      [{ type: 'image', data: new TextEncoder().encode('just some text') }],
      'INVALID_INPUT',
    );
  });

  it('a BMP image file fails with INVALID_INPUT whatever its name', async () => {
    const agent = await agentWith();
    await writeFile(
      path.join(agent.workspace.cwd, 'fake.png'),
      Uint8Array.from([0x42, 0x4d, 0, 0, 0, 0, 0, 0]),
    );
    await expectRefused(agent, [{ type: 'image', path: 'fake.png' }], 'INVALID_INPUT');
  });

  it('base64 text that is not base64 fails with INVALID_INPUT', async () => {
    const agent = await agentWith();
    await expectRefused(agent, [{ type: 'image', data: 'not base64 at all!' }], 'INVALID_INPUT');
  });

  it('a model without vision given an image fails with MODEL_NOT_SUPPORTED', async () => {
    const agent = await agentWith({ vision: false });
    const events = await expectRefused(
      agent,
      [
        { type: 'text', text: 'look' },
        { type: 'image', data: PNG },
      ],
      'MODEL_NOT_SUPPORTED',
    );
    expect(events.at(-1)).toMatchObject({ error: { details: { modelId: 'm', capability: 'vision' } } });
  });
});

describe('files (spec §8)', () => {
  it('a text file arrives as a file block carrying its text', async () => {
    const agent = await agentWith();
    await writeFile(path.join(agent.workspace.cwd, 'notes.md'), '# Notes\nremember the milk\n');
    const content = await sentContent(agent, [{ type: 'file', path: 'notes.md' }]);
    expect(content).toEqual([
      {
        type: 'file',
        path: path.join(agent.agent.cwd, 'notes.md'),
        name: 'notes.md',
        mediaType: 'text/markdown',
        text: '# Notes\nremember the milk\n',
      },
    ]);
  });

  it('a text file reaches a model without the documents capability', async () => {
    const agent = await agentWith({ documents: false, vision: false });
    await writeFile(path.join(agent.workspace.cwd, 'a.txt'), 'plain');
    const content = await sentContent(agent, [{ type: 'file', path: 'a.txt' }]);
    expect(content[0]).toMatchObject({ type: 'file', text: 'plain' });
  });

  it('a PDF is sent as base64 data to a model with the documents capability', async () => {
    const agent = await agentWith({ documents: true });
    await writeFile(path.join(agent.workspace.cwd, 'paper.pdf'), PDF_BYTES);
    const content = await sentContent(agent, [{ type: 'file', path: 'paper.pdf' }]);
    expect(content[0]).toMatchObject({
      type: 'file',
      name: 'paper.pdf',
      mediaType: 'application/pdf',
      data: base64(PDF_BYTES),
    });
    expect(content[0]).not.toHaveProperty('text');
  });

  it('a PDF given to a model without the documents capability fails with MODEL_NOT_SUPPORTED', async () => {
    const agent = await agentWith({ documents: false });
    await writeFile(path.join(agent.workspace.cwd, 'paper.pdf'), PDF_BYTES);
    const events = await expectRefused(agent, [{ type: 'file', path: 'paper.pdf' }], 'MODEL_NOT_SUPPORTED');
    expect(events.at(-1)).toMatchObject({ error: { details: { capability: 'documents' } } });
  });

  it('a file larger than 10 MB fails with FILE_TOO_LARGE', async () => {
    const agent = await agentWith();
    const file = path.join(agent.workspace.cwd, 'big.log');
    await writeFile(file, 'x');
    await truncate(file, MAX_FILE_BYTES + 1);
    await expectRefused(agent, [{ type: 'file', path: 'big.log' }], 'FILE_TOO_LARGE');
  });

  it('a file outside the workspace and the home fails with PATH_NOT_ALLOWED', async () => {
    const agent = await agentWith();
    const outside = path.join(path.dirname(agent.workspace.cwd), 'secret.txt');
    await writeFile(outside, 'secret');
    const events = await expectRefused(agent, [{ type: 'file', path: outside }], 'PATH_NOT_ALLOWED');
    expect(JSON.stringify(events)).not.toContain('"secret"');
  });

  it('a `..` path that escapes the workspace fails with PATH_NOT_ALLOWED', async () => {
    const agent = await agentWith();
    await writeFile(path.join(path.dirname(agent.workspace.cwd), 'secret.txt'), 'secret');
    await mkdir(path.join(agent.workspace.cwd, 'src'));
    await expectRefused(agent, [{ type: 'file', path: 'src/../../secret.txt' }], 'PATH_NOT_ALLOWED');
  });

  it('a `..` path that stays inside the workspace is allowed', async () => {
    const agent = await agentWith();
    await mkdir(path.join(agent.workspace.cwd, 'src'));
    await writeFile(path.join(agent.workspace.cwd, 'README.md'), 'readme');
    const content = await sentContent(agent, [{ type: 'file', path: 'src/../README.md' }]);
    expect(content[0]).toMatchObject({ type: 'file', text: 'readme' });
  });

  it('a symlink inside the workspace pointing outside fails with PATH_NOT_ALLOWED', async () => {
    const agent = await agentWith();
    const outside = path.join(path.dirname(agent.workspace.cwd), 'secret.txt');
    await writeFile(outside, 'secret');
    await symlink(outside, path.join(agent.workspace.cwd, 'innocent.txt'));
    await expectRefused(agent, [{ type: 'file', path: 'innocent.txt' }], 'PATH_NOT_ALLOWED');
  });

  it('an image through a symlinked folder pointing outside fails with PATH_NOT_ALLOWED', async () => {
    const agent = await agentWith();
    const outsideDir = path.join(path.dirname(agent.workspace.cwd), 'elsewhere');
    await mkdir(outsideDir);
    await writeFile(path.join(outsideDir, 'x.png'), PNG);
    await symlink(outsideDir, path.join(agent.workspace.cwd, 'linked'));
    await expectRefused(agent, [{ type: 'image', path: 'linked/x.png' }], 'PATH_NOT_ALLOWED');
  });

  it('a file in the YouYou home is allowed', async () => {
    const agent = await agentWith();
    const file = path.join(agent.workspace.home, 'AGENT.md');
    await writeFile(file, 'be brief');
    const content = await sentContent(agent, [{ type: 'file', path: file }]);
    expect(content[0]).toMatchObject({ type: 'file', name: 'AGENT.md', text: 'be brief' });
  });

  it('a missing file outside the workspace fails with PATH_NOT_ALLOWED, so existence outside is never revealed', async () => {
    const agent = await agentWith();
    const missing = path.join(path.dirname(agent.workspace.cwd), 'no-such-file.txt');
    await expectRefused(agent, [{ type: 'file', path: missing }], 'PATH_NOT_ALLOWED');
    await expectRefused(agent, [{ type: 'image', path: '../no-such-image.png' }], 'PATH_NOT_ALLOWED');
  });

  it('a missing file fails with INVALID_INPUT', async () => {
    const agent = await agentWith();
    await expectRefused(agent, [{ type: 'file', path: 'nope.txt' }], 'INVALID_INPUT');
  });

  it('a directory given as a file fails with INVALID_INPUT', async () => {
    const agent = await agentWith();
    await mkdir(path.join(agent.workspace.cwd, 'folder'));
    await expectRefused(agent, [{ type: 'file', path: 'folder' }], 'INVALID_INPUT');
  });
});

describe('messages with several blocks (spec §8)', () => {
  it('text, an image and a file arrive as one user message in the order given', async () => {
    const agent = await agentWith();
    await writeFile(path.join(agent.workspace.cwd, 'data.csv'), 'a,b\n1,2\n');
    const content = await sentContent(agent, [
      { type: 'text', text: 'compare' },
      { type: 'image', data: GIF },
      { type: 'file', path: 'data.csv' },
      { type: 'text', text: 'please' },
    ]);
    expect(content.map((block) => block.type)).toEqual(['text', 'image', 'file', 'text']);
    expect(content[2]).toMatchObject({ mediaType: 'text/csv', text: 'a,b\n1,2\n' });
    expect(agent.provider.requests[0]?.messages.filter((message) => message.role === 'user')).toHaveLength(1);
  });

  it('one bad block refuses the whole message', async () => {
    const agent = await agentWith();
    await expectRefused(
      agent,
      [
        { type: 'text', text: 'two files' },
        { type: 'image', data: PNG },
        { type: 'file', path: 'missing.txt' },
      ],
      'INVALID_INPUT',
    );
  });

  it.each([
    ['an empty string', ''],
    ['an empty block list', []],
    ['only whitespace', '   \n\t'],
    ['an empty text block', [{ type: 'text', text: '' }]],
  ] as const)('%s fails with INVALID_INPUT', async (_label, input) => {
    const agent = await agentWith();
    await expectRefused(agent, input, 'INVALID_INPUT');
  });

  it('an unknown block type fails with INVALID_INPUT', async () => {
    const agent = await agentWith();
    await expectRefused(
      agent,
      [{ type: 'audio', data: 'AAAA' } as unknown as { type: 'text'; text: string }],
      'INVALID_INPUT',
    );
  });

  it('a session goes on after a refused message', async () => {
    const agent = await agentWith({ vision: false });
    agent.provider.enqueue(textReply('hello'));
    const session = await agent.agent.newSession();
    await collect(session.send([{ type: 'image', data: PNG }]));
    const events = await collect(session.send('just text'));
    expect(events.at(-1)).toMatchObject({ type: 'TurnComplete', status: 'completed' });
    expect(agent.provider.requests[0]?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'just text' }] },
    ]);
  });
});
