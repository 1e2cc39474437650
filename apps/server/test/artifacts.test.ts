import { mkdir, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import type { Artifact, ArtifactDiff, ArtifactVersion, ConversationMessage } from '@youyou/contracts';
import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

const PLAN_V1 = '# Launch plan\n\n- [ ] Draft the announcement\n- [ ] Book the venue\n- [ ] Draft the FAQ\n';

function toolResults(
  message: ConversationMessage | undefined,
): { tool_name: string; output: string; is_error: boolean }[] {
  return (message?.parts ?? []).flatMap((part) =>
    part.type === 'tool_result'
      ? [{ tool_name: part.tool_name, output: part.output, is_error: part.is_error }]
      : [],
  );
}

describe.each(DATABASE_KINDS)('artifacts on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database, server: { toolResultBudgetBytes: 4096 } });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function turn(conversationId: string | undefined, text: string) {
    if (conversationId === undefined) {
      const sent = await sendFirstMessage(server, text);
      const view = await server.settled(sent.conversationId, sent.runId);
      return { conversationId: sent.conversationId, runId: sent.runId, view };
    }
    const sent = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      {
        text,
      },
    );
    return { conversationId, runId: sent.run.id, view: await server.settled(conversationId, sent.run.id) };
  }

  it('the agent writes a markdown artifact, edits it exactly, and both versions and their diff are served', async () => {
    server.fake.push(
      fakeToolCallReply('create_artifact', { title: 'launch-plan.md', kind: 'markdown', content: PLAN_V1 }),
      fakeTextReply('I wrote the plan.'),
    );
    const first = await turn(undefined, 'Write a launch plan');
    const assistant = first.view.messages.at(-1);
    expect(toolResults(assistant)[0]).toMatchObject({ tool_name: 'create_artifact', is_error: false });
    const chip = assistant?.parts.find((part) => part.type === 'artifact');
    expect(chip).toMatchObject({ title: 'launch-plan.md', kind: 'markdown', version: 1, change: 'create' });
    const artifactId = chip?.type === 'artifact' ? chip.artifact_id : '';

    server.fake.push(
      fakeToolCallReply('update_artifact', {
        artifact: 'launch-plan.md',
        edits: [
          { find: '- [ ] Book the venue', replace: '- [x] Book the venue (Hall B)' },
          { find: '# Launch plan', replace: '# Launch plan (v2)' },
        ],
      }),
      fakeTextReply('Updated.'),
    );
    const second = await turn(first.conversationId, 'The venue is booked');
    expect(toolResults(second.view.messages.at(-1))[0]?.output).toContain('to version 2');
    expect(second.view.messages.at(-1)?.parts.find((part) => part.type === 'artifact')).toMatchObject({
      artifact_id: artifactId,
      version: 2,
      change: 'edit',
    });

    const { artifacts } = await server.call<{ artifacts: Artifact[] }>(
      'GET',
      `/api/conversations/${first.conversationId}/artifacts`,
    );
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0]).toMatchObject({ id: artifactId, kind: 'markdown', version: 2, run_id: first.runId });
    const detail = await server.call<{ versions: ArtifactVersion[] }>('GET', `/api/artifacts/${artifactId}`);
    expect(detail.versions.map((version) => [version.version, version.change])).toEqual([
      [1, 'create'],
      [2, 'edit'],
    ]);
    const v1 = await server.call<ArtifactVersion>('GET', `/api/artifacts/${artifactId}/versions/1`);
    expect(v1.content).toBe(PLAN_V1);
    const v2 = await server.call<ArtifactVersion>('GET', `/api/artifacts/${artifactId}/versions/2`);
    expect(v2.content).toContain('- [x] Book the venue (Hall B)');
    const diff = await server.call<ArtifactDiff>('GET', `/api/artifacts/${artifactId}/diff?from=1&to=2`);
    expect(diff).toMatchObject({ from: 1, to: 2, added: 2, removed: 2 });
    expect(diff.unified).toContain('-- [ ] Book the venue');
    expect(diff.unified).toContain('+- [x] Book the venue (Hall B)');

    const download = await server.request<string>('GET', `/api/artifacts/${artifactId}/download?version=1`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain("filename*=UTF-8''launch-plan.md");
    expect(download.body).toBe(PLAN_V1);

    // read_artifact with a line range, by title, through the model
    server.fake.push(
      fakeToolCallReply('read_artifact', { artifact: 'launch-plan.md', from_line: 3, to_line: 4 }),
      fakeTextReply('Read it.'),
    );
    const third = await turn(first.conversationId, 'What is on the list?');
    const read = toolResults(third.view.messages.at(-1))[0]?.output ?? '';
    expect(read).toContain('lines 3–4 of 5');
    expect(read).toContain('- [ ] Draft the announcement\n- [x] Book the venue (Hall B)');
    expect(read).not.toContain('Draft the FAQ');
  });

  it('bad updates fail clearly and change nothing: a missing artifact, a find that is not there, an ambiguous find', async () => {
    server.fake.push(
      fakeToolCallReply('create_artifact', {
        title: 'notes.txt',
        kind: 'text',
        content: 'step one\nstep two\n',
      }),
      fakeToolCallReply('update_artifact', { artifact: 'no-such-artifact', content: 'x' }),
      fakeToolCallReply('update_artifact', {
        artifact: 'notes.txt',
        edits: [{ find: 'step three', replace: 'x' }],
      }),
      fakeToolCallReply('update_artifact', {
        artifact: 'notes.txt',
        edits: [{ find: 'step', replace: 'done' }],
      }),
      fakeToolCallReply('update_artifact', {
        artifact: 'notes.txt',
        edits: [
          { find: 'step one', replace: 'done one' },
          { find: 'missing', replace: 'x' },
        ],
      }),
      fakeToolCallReply('create_artifact', { title: 'notes.txt', kind: 'text', content: 'again' }),
      fakeTextReply('Tried.'),
    );
    const { conversationId, view } = await turn(undefined, 'Keep notes');
    const results = toolResults(view.messages.at(-1));
    expect(results.map((result) => result.is_error)).toEqual([false, true, true, true, true, true]);
    expect(results[1]?.output).toMatch(
      /^Error \[NOT_FOUND\]: No artifact with the id or title "no-such-artifact"/,
    );
    expect(results[2]?.output).toMatch(/^Error \[ARTIFACT_EDIT_NOT_FOUND\]: Edit 1/);
    expect(results[3]?.output).toMatch(/^Error \[ARTIFACT_EDIT_AMBIGUOUS\]: Edit 1: .*lines 1, 2/);
    // The second edit failed: the first is not applied either.
    expect(results[4]?.output).toMatch(/^Error \[ARTIFACT_EDIT_NOT_FOUND\]: Edit 2/);
    expect(results[5]?.output).toMatch(/^Error \[NAME_CONFLICT\]/);
    const { artifacts } = await server.call<{ artifacts: Artifact[] }>(
      'GET',
      `/api/conversations/${conversationId}/artifacts`,
    );
    expect(artifacts.map((artifact) => [artifact.title, artifact.version])).toEqual([['notes.txt', 1]]);
    const content = await server.call<ArtifactVersion>(
      'GET',
      `/api/artifacts/${artifacts[0]?.id ?? ''}/versions/1`,
    );
    expect(content.content).toBe('step one\nstep two\n');
  });

  it('the API answers bad requests with structured errors: versions of two artifacts, unknown ids and versions', async () => {
    server.fake.push(
      fakeToolCallReply('create_artifact', { title: 'a.json', kind: 'json', content: '{"a":1}' }),
      fakeToolCallReply('create_artifact', { title: 'b.json', kind: 'json', content: '{"b":1}' }),
      fakeToolCallReply('update_artifact', { artifact: 'b.json', content: '{"b":2}' }),
      fakeTextReply('Two files.'),
    );
    const { conversationId } = await turn(undefined, 'Write two files');
    const { artifacts } = await server.call<{ artifacts: Artifact[] }>(
      'GET',
      `/api/conversations/${conversationId}/artifacts`,
    );
    const a = artifacts.find((artifact) => artifact.title === 'a.json') as Artifact;
    const b = artifacts.find((artifact) => artifact.title === 'b.json') as Artifact;
    const bVersions = await server.call<{ versions: ArtifactVersion[] }>('GET', `/api/artifacts/${b.id}`);
    const mismatch = await server.request<{ error: { code: string; details: Record<string, unknown> } }>(
      'GET',
      `/api/artifacts/${a.id}/diff?from=1&to=${bVersions.versions[1]?.id ?? ''}`,
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toMatchObject({
      code: 'ARTIFACT_VERSION_MISMATCH',
      details: { artifact_id: a.id, version_artifact_id: b.id },
    });
    const byIds = await server.call<ArtifactDiff>(
      'GET',
      `/api/artifacts/${b.id}/diff?from=${bVersions.versions[0]?.id ?? ''}&to=${bVersions.versions[1]?.id ?? ''}`,
    );
    expect(byIds).toMatchObject({ from: 1, to: 2, added: 1, removed: 1 });

    const noVersion = await server.request<{ error: { code: string } }>(
      'GET',
      `/api/artifacts/${a.id}/versions/9`,
    );
    expect(noVersion.status).toBe(404);
    expect(noVersion.body.error.code).toBe('NOT_FOUND');
    const noArtifact = await server.request<{ error: { code: string } }>(
      'GET',
      '/api/artifacts/nope/diff?from=1&to=2',
    );
    expect(noArtifact.body.error.code).toBe('NOT_FOUND');
    const notRenderable = await server.request<{ error: { code: string } }>(
      'GET',
      `/api/artifacts/${a.id}/render`,
    );
    expect(notRenderable.status).toBe(415);

    expect((await server.request('DELETE', `/api/artifacts/${a.id}`)).status).toBe(204);
    expect((await server.request('GET', `/api/artifacts/${a.id}`)).status).toBe(404);
  });

  it('an html artifact is served only as a sandboxed page: opaque origin, no network, framed by our pages alone', async () => {
    server.fake.push(
      fakeToolCallReply('create_artifact', {
        title: 'page.html',
        kind: 'html',
        content: '<h1>Hi</h1><script>document.title = "ran"</script>',
      }),
      fakeTextReply('Made a page.'),
    );
    const { conversationId } = await turn(undefined, 'Make a page');
    const { artifacts } = await server.call<{ artifacts: Artifact[] }>(
      'GET',
      `/api/conversations/${conversationId}/artifacts`,
    );
    const page = await server.request<string>('GET', `/api/artifacts/${artifacts[0]?.id ?? ''}/render`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain('sandbox allow-scripts');
    expect(csp).not.toContain('allow-same-origin');
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(page.body).toContain('<h1>Hi</h1>');
    // Without the token nothing is served.
    expect(
      (await server.request('GET', `/api/artifacts/${artifacts[0]?.id ?? ''}/render`, { token: null }))
        .status,
    ).toBe(401);
  });

  it('a tool result over the budget becomes an artifact: the model and the user get head, tail and the pointer', async () => {
    const folder = join(server.directories.home, 'tools', 'big_listing');
    await mkdir(folder, { recursive: true });
    await writeFile(
      join(folder, 'index.md'),
      '---\nversion: 1\nname: big_listing\nexecution:\n  command: "./run.sh"\n---\nLists many numbered lines.\n',
    );
    await writeFile(join(folder, 'run.sh'), '#!/bin/sh\ncat > /dev/null\nseq 1 5000 | sed "s/^/line /"\n');
    await chmod(join(folder, 'run.sh'), 0o755);
    server.fake.push(fakeToolCallReply('big_listing', {}), fakeTextReply('Long.'));
    const { conversationId, view } = await turn(undefined, 'List everything');
    const result = toolResults(view.messages.at(-1))[0];
    expect(result?.is_error).toBe(false);
    expect(result?.output.startsWith('line 1\nline 2\n')).toBe(true);
    expect(result?.output.trimEnd().endsWith('line 5000')).toBe(true);
    expect(result?.output).toMatch(
      /stored whole as artifact "big_listing result [^"]+" \(id [0-9a-f-]+\) — use read_artifact/,
    );
    expect(Buffer.byteLength(result?.output ?? '')).toBeLessThanOrEqual(4096);
    const chip = view.messages.at(-1)?.parts.find((part) => part.type === 'artifact');
    expect(chip).toMatchObject({ change: 'overflow', kind: 'text' });
    // What the model was sent is the same cut text.
    const sent = JSON.stringify(server.fake.chatRequests.at(-1)?.body);
    expect(sent).toContain('use read_artifact');
    expect(sent).not.toContain('line 2500\\n');
    const whole = await server.call<ArtifactVersion>(
      'GET',
      `/api/artifacts/${chip?.type === 'artifact' ? chip.artifact_id : ''}/versions/1`,
    );
    expect(whole.lines).toBe(5000);
    expect(whole.content).toContain('line 2500\n');
    expect(conversationId).toBeTruthy();
  });

  it('@artifact: references put the artifact into the message; an unknown one is NOT_FOUND before any run', async () => {
    server.fake.push(
      fakeToolCallReply('create_artifact', {
        title: 'spec.md',
        kind: 'markdown',
        content: '# Spec\nThe answer is 42.\n',
      }),
      fakeTextReply('Written.'),
    );
    const { conversationId } = await turn(undefined, 'Write the spec');
    server.fake.push(fakeTextReply('It says 42.'));
    await turn(conversationId, 'What does @artifact:spec.md say?');
    expect(JSON.stringify(server.fake.chatRequests.at(-1)?.body)).toContain('The answer is 42.');
    const missing = await server.request<{ error: { code: string; details: Record<string, unknown> } }>(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      { body: { text: 'Compare with @artifact:nothing-here' } },
    );
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({
      code: 'NOT_FOUND',
      details: { resource: 'artifact', id: 'nothing-here' },
    });
    const resolved = await server.call<Artifact>(
      'GET',
      `/api/conversations/${conversationId}/artifacts/resolve?reference=spec.md`,
    );
    expect(resolved.title).toBe('spec.md');
  });

  it('uploads are listed as artifacts of kind upload, per conversation and per project', async () => {
    const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Docs' });
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {
      project_id: project.id,
    });
    const form = new FormData();
    form.set('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
    form.set('conversation_id', conversation.id);
    const upload = await server.call<{ id: string }>('POST', '/api/uploads', form);
    const listed = await server.call<{ artifacts: Artifact[] }>(
      'GET',
      `/api/conversations/${conversation.id}/artifacts`,
    );
    expect(listed.artifacts).toEqual([
      expect.objectContaining({ id: upload.id, kind: 'upload', title: 'hello.txt' }),
    ]);
    const ofProject = await server.call<{ artifacts: Artifact[] }>(
      'GET',
      `/api/projects/${project.id}/artifacts`,
    );
    expect(ofProject.artifacts.map((artifact) => artifact.id)).toEqual([upload.id]);
    const download = await server.request<string>('GET', `/api/artifacts/${upload.id}/download`);
    expect(download.body).toBe('hello');
    const diff = await server.request<{ error: { code: string } }>(
      'GET',
      `/api/artifacts/${upload.id}/diff?from=1&to=1`,
    );
    expect(diff.body.error.code).toBe('INVALID_INPUT');
  });
});
