import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  ArchiveImportResult,
  ArchiveManifest,
  Artifact,
  ContextAssemblyReport,
  MemoryCandidate,
  MemoryItem,
} from '@youyou/contracts';
import { fakeTextReply, fakeToolCallReply } from '@youyou/testing';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeArchive, type ArchiveFile } from '../src/archive/index.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type ApiResponse, type TestServer } from './support/test-server.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A value with its UUIDs renamed by order of first appearance: equal when equal up to ids. */
function upToIds(value: unknown): unknown {
  const names = new Map<string, string>();
  return JSON.parse(
    JSON.stringify(value).replace(UUID, (id) => {
      let name = names.get(id);
      if (name === undefined) {
        name = `id-${names.size + 1}`;
        names.set(id, name);
      }
      return name;
    }),
  ) as unknown;
}

/** A key-shaped string (the redactor knows the shape) and the test provider's own key. */
const SECRETS = ['ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'sk-fake-key-for-tests-0001'];

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe.each(DATABASE_KINDS)('export and import archives on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let projectId: string;
  let conversationId: string;
  let archive: Uint8Array;
  let runIds: string[];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    const project = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Launch' });
    projectId = project.id;
    const conversation = await server.call<{ id: string }>('POST', '/api/conversations', {
      project_id: projectId,
    });
    conversationId = conversation.id;
    // Memory on, without candidates proposed after each run (they would take the fake's replies).
    await server.call('PUT', '/api/memory/settings', { enabled: true, propose_candidates: false });
    const form = new FormData();
    form.set('file', new Blob(['# Notes\nThe venue is Hall B.\n'], { type: 'text/markdown' }), 'notes.md');
    form.set('conversation_id', conversationId);
    const upload = await server.call<{ id: string }>('POST', '/api/uploads', form);
    server.fake.push(
      fakeToolCallReply('create_artifact', {
        title: 'plan.md',
        kind: 'markdown',
        content: '# Plan\n\n- venue\n',
      }),
      fakeTextReply('I wrote the plan.'),
    );
    const first = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      {
        text: 'Plan the launch from my notes',
        attachments: [upload.id],
      },
    );
    await server.settled(conversationId, first.run.id);
    server.fake.push(
      fakeToolCallReply('update_artifact', {
        artifact: 'plan.md',
        edits: [{ find: '- venue', replace: '- venue: Hall B' }],
      }),
      fakeTextReply('Updated.'),
    );
    const second = await server.call<{ run: { id: string }; assistant_message_id: string }>(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      { text: 'Add the venue' },
    );
    await server.settled(conversationId, second.run.id);
    server.fake.push(fakeTextReply('Updated, said again.'));
    const again = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversationId}/messages/${second.assistant_message_id}/regenerate`,
      {},
    );
    await server.settled(conversationId, again.run.id);
    runIds = [first.run.id, second.run.id, again.run.id];
    await server.call('POST', '/api/memories', {
      scope: 'project',
      project_id: projectId,
      type: 'decision',
      content: 'The launch is in Hall B',
      source_run_id: first.run.id,
      tags: ['venue'],
    });
    await server.call('POST', '/api/memories', {
      scope: 'project',
      project_id: projectId,
      content: `The deploy token is ${SECRETS[0]} and the model key ${SECRETS[1]}`,
      tags: [SECRETS[0] ?? ''],
    });
    await server.call('POST', '/api/memories', { scope: 'user', content: 'Answers in British English' });
    // What the lightweight model would propose after a run, accepted from the conversation.
    const [candidate] = await server.server.services.memory.repository.addCandidates([
      {
        conversation_id: conversationId,
        run_id: second.run.id,
        scope: 'project',
        project_id: projectId,
        type: 'fact',
        content: 'The plan lists the venue',
        confidence: 0.8,
      },
      {
        conversation_id: conversationId,
        run_id: second.run.id,
        scope: 'user',
        project_id: null,
        type: 'fact',
        content: `The staging token is ${SECRETS[0]}`,
        confidence: 0.5,
      },
    ]);
    await server.server.services.memory.decide(candidate?.id ?? '', { accept: true });
    // A conversation outside the project, which a project archive leaves out.
    await server.call('POST', '/api/conversations', {});
    const response = await fetch(`${server.url}/api/projects/${projectId}/archive`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    archive = new Uint8Array(await response.arrayBuffer());
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function importArchive(bytes: Uint8Array, query = ''): Promise<ApiResponse<unknown>> {
    const response = await fetch(`${server.url}/api/archive/import${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/zip' },
      body: bytes,
    });
    return { status: response.status, body: (await response.json()) as unknown, headers: response.headers };
  }

  async function snapshot() {
    const { projects } = await server.call<{ projects: unknown[] }>('GET', '/api/projects');
    const { conversations } = await server.call<{ conversations: unknown[] }>(
      'GET',
      '/api/conversations?limit=200',
    );
    const { total: memories } = await server.call<{ total: number }>('GET', '/api/memories');
    return {
      projects: projects.length,
      conversations: conversations.length,
      memories,
      files: (await filesUnder(server.directories.dataDirectory)).length,
    };
  }

  /** The runs of a conversation, in the order they were created. */
  async function runsOf(id: string): Promise<string[]> {
    const { events } = await server.call<{ events: { type: string; run_id: string | null }[] }>(
      'GET',
      `/api/conversations/${id}/event-log`,
    );
    return events.filter((event) => event.type === 'run.created').map((event) => String(event.run_id));
  }

  async function reportsOf(runs: readonly string[]): Promise<ContextAssemblyReport[][]> {
    const reports = [];
    for (const run of runs) {
      reports.push(
        (await server.call<{ reports: ContextAssemblyReport[] }>('GET', `/api/runs/${run}/context`)).reports,
      );
    }
    return reports;
  }

  async function memoriesOf(query: string): Promise<MemoryItem[]> {
    return (await server.call<{ memories: MemoryItem[] }>('GET', `/api/memories?limit=500&${query}`))
      .memories;
  }

  /** What a person sees of a conversation: the Query, the branch tree, artifacts and their versions. */
  async function seen(id: string) {
    const {
      last_seq: _lastSeq,
      conversation: { last_seq: _conversationLastSeq, ...conversation },
      ...view
    } = await server.call<{ last_seq: number; conversation: { last_seq: number } }>(
      'GET',
      `/api/conversations/${id}`,
    );
    const { artifacts } = await server.call<{ artifacts: Artifact[] }>(
      'GET',
      `/api/conversations/${id}/artifacts`,
    );
    const versions = [];
    for (const artifact of artifacts) {
      versions.push(await server.call('GET', `/api/artifacts/${artifact.id}`));
      if (artifact.kind === 'upload') {
        versions.push(
          await server.request('GET', `/api/artifacts/${artifact.id}/download`).then((r) => r.body),
        );
      }
    }
    // An import parses the uploads again (documents are derived data): their document.status
    // events are the imported server's own, checked on their own below.
    const events = (
      await server.call<{ events: { type: string }[] }>('GET', `/api/conversations/${id}/event-log`)
    ).events.filter((event) => event.type !== 'document.status');
    return { view: { ...view, conversation }, artifacts, versions, events };
  }

  it('the manifest lists every entry with its size and SHA-256, with Markdown for people and the upload as a file', () => {
    const entries = unzipSync(archive);
    const manifest = JSON.parse(strFromU8(entries['manifest.json'] ?? new Uint8Array())) as ArchiveManifest;
    expect(manifest).toMatchObject({
      format: 'youyou.archive',
      format_version: 2,
      scope: 'project',
      projects: [{ id: projectId, name: 'Launch' }],
      conversations: [{ id: conversationId, project_id: projectId }],
    });
    expect(manifest.app_version).toMatch(/\d+\.\d+/);
    expect(Object.keys(entries).sort()).toEqual(
      ['manifest.json', ...manifest.items.map((item) => item.path)].sort(),
    );
    expect(manifest.items.map((item) => item.kind).sort()).toEqual([
      'conversation',
      'markdown',
      'memories',
      'object',
      'projects',
    ]);
    const markdown = manifest.items.find((item) => item.kind === 'markdown');
    const text = strFromU8(entries[markdown?.path ?? ''] ?? new Uint8Array());
    expect(text).toContain('Plan the launch from my notes');
    expect(text).toContain('Updated, said again.');
    const object = manifest.items.find((item) => item.kind === 'object');
    expect(strFromU8(entries[object?.path ?? ''] ?? new Uint8Array())).toBe(
      '# Notes\nThe venue is Hall B.\n',
    );
    expect(JSON.stringify(manifest)).not.toContain('sk-fake-key');
    for (const bytes of Object.values(entries)) {
      for (const secret of SECRETS) expect(strFromU8(bytes, true)).not.toContain(secret);
    }
  });

  it('a project archive carries the project’s memories, secrets redacted, and not the user’s', () => {
    const entries = unzipSync(archive);
    const { memories } = JSON.parse(strFromU8(entries['memories.json'] ?? new Uint8Array())) as {
      memories: { scope: string; project_id: string; content: string; tags: string; owner: unknown }[];
    };
    expect(memories.map((memory) => memory.content).sort()).toEqual([
      'The deploy token is [redacted] and the model key [redacted]',
      'The launch is in Hall B',
      'The plan lists the venue',
    ]);
    expect(memories.every((memory) => memory.scope === 'project' && memory.project_id === projectId)).toBe(
      true,
    );
    expect(memories.map((memory) => memory.owner)).toEqual([null, null, null]);
    expect(memories.map((memory) => JSON.parse(memory.tags) as string[])).toContainEqual(['[redacted]']);
  });

  it('a project round trip brings its memories and the conversation’s context reports and memory candidates, with new ids', async () => {
    const sourceReports = await reportsOf(runIds);
    expect(sourceReports.every((reports) => reports.length > 0)).toBe(true);
    const sourceMemories = await memoriesOf(`scope=project&project_id=${projectId}`);
    const users = (await memoriesOf('scope=user')).length;
    const imported = await importArchive(archive);
    expect(imported.status).toBe(201);
    const result = imported.body as ArchiveImportResult;
    const newProject = result.projects[0]?.id ?? '';
    const copy = result.conversations[0]?.id ?? '';
    expect(result.counts).toMatchObject({ memories: 3, memory_candidates: 2 });
    expect(result.counts['context_reports']).toBe(sourceReports.flat().length);

    const copyRuns = await runsOf(copy);
    expect(copyRuns).toHaveLength(runIds.length);
    expect(copyRuns.filter((id) => runIds.includes(id))).toEqual([]);
    expect(upToIds(await reportsOf(copyRuns))).toEqual(upToIds(sourceReports));

    const memories = await memoriesOf(`scope=project&project_id=${newProject}`);
    const byContent = (items: readonly MemoryItem[]) =>
      [...items].sort((a, b) => a.content.localeCompare(b.content));
    expect(
      byContent(memories).map(({ id: _id, project_id: _project, source_run_id: _run, ...rest }) => rest),
    ).toEqual(
      byContent(sourceMemories).map(({ id: _id, project_id: _project, source_run_id: _run, ...rest }) => ({
        ...rest,
        content: rest.content.includes('deploy token')
          ? 'The deploy token is [redacted] and the model key [redacted]'
          : rest.content,
        tags: rest.tags.map((tag) => (SECRETS.includes(tag) ? '[redacted]' : tag)),
      })),
    );
    expect(memories.filter((memory) => sourceMemories.some((source) => source.id === memory.id))).toEqual([]);
    // The memory made from the first run points at the copy's first run.
    expect(memories.find((memory) => memory.content === 'The launch is in Hall B')?.source_run_id).toBe(
      copyRuns[0],
    );
    // The accepted candidate names the imported memory it became.
    const candidates: MemoryCandidate[] = await server.server.services.memory.repository.candidatesOf(copy);
    const accepted = memories.find((memory) => memory.content === 'The plan lists the venue');
    expect(candidates).toMatchObject([
      { status: 'accepted', run_id: copyRuns[1], project_id: newProject, memory_id: accepted?.id },
      { status: 'pending', content: 'The staging token is [redacted]', memory_id: null },
    ]);
    // The user's memory stays the user's one: a project archive does not carry it.
    expect(await memoriesOf('scope=user')).toHaveLength(users);
  });

  it('an archive of the old format (version 1: no memories, no context reports) still imports', async () => {
    const entries = unzipSync(archive);
    const manifest = manifestOf(entries);
    const files = manifest.items
      .filter((item) => item.kind !== 'memories')
      .map((item) => {
        const bytes = entries[item.path] ?? new Uint8Array();
        if (item.kind !== 'conversation') return { ...item, bytes };
        const rows = JSON.parse(strFromU8(bytes)) as { tables: Record<string, unknown> };
        const { context_reports: _reports, memory_candidates: _candidates, ...tables } = rows.tables;
        return { ...item, bytes: strToU8(JSON.stringify({ ...rows, tables })) };
      });
    const version1 = zipSync({
      'manifest.json': strToU8(
        JSON.stringify({
          ...manifest,
          format_version: 1,
          items: files.map(({ path, kind, bytes }) => ({
            path,
            kind,
            size: bytes.byteLength,
            sha256: createHash('sha256').update(bytes).digest('hex'),
          })),
        }),
      ),
      ...Object.fromEntries(files.map((file) => [file.path, file.bytes])),
    });
    const before = await seen(conversationId);
    const imported = await importArchive(version1);
    expect(imported.status).toBe(201);
    const result = imported.body as ArchiveImportResult;
    const copy = result.conversations[0]?.id ?? '';
    expect(upToIds(await seen(copy))).toEqual(upToIds(before));
    expect(result.counts).toMatchObject({ memories: 0, context_reports: 0, memory_candidates: 0 });
    expect(await memoriesOf(`project_id=${result.projects[0]?.id}`)).toEqual([]);
  });

  it('a project round trip gives a new project whose conversation reads the same, branches, artifacts and upload included, with new ids', async () => {
    const before = await seen(conversationId);
    const imported = await importArchive(archive);
    expect(imported.status).toBe(201);
    const result = imported.body as ArchiveImportResult;
    // Into the same workbench, where "Launch" exists: a copy with a name of its own (decision 0048).
    expect(result.projects).toEqual([
      { id: expect.any(String), name: expect.stringMatching(/^Launch \(\d+\)$/), source_id: projectId },
    ]);
    expect(result.conversations).toHaveLength(1);
    const copy = result.conversations[0];
    expect(copy?.id).not.toBe(conversationId);
    expect(result.projects[0]?.id).not.toBe(projectId);
    // The imported upload is read again and reaches the new project's knowledge.
    await expect
      .poll(
        async () =>
          (
            await server.call<{ hits: unknown[] }>('POST', '/api/knowledge/search', {
              query: 'Hall B',
              project_id: result.projects[0]?.id,
              sources: ['upload'],
            })
          ).hits.length,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    const after = await seen(copy?.id ?? '');
    expect(upToIds(after)).toEqual(upToIds(before));
    const listed = await server.call<{ conversations: { id: string; project_id: string }[] }>(
      'GET',
      `/api/conversations?project_id=${result.projects[0]?.id}`,
    );
    expect(listed.conversations.map((row) => row.id)).toEqual([copy?.id]);
    // The same archive again: another copy, colliding with nothing.
    const twice = await importArchive(archive);
    expect(twice.status).toBe(201);
    const third = (twice.body as ArchiveImportResult).conversations[0]?.id ?? '';
    expect([conversationId, copy?.id]).not.toContain(third);
    expect(upToIds(await seen(third))).toEqual(upToIds(before));
  });

  it('a conversation imported into an existing project lands in it, and the new conversation can go on', async () => {
    const target = await server.call<{ id: string }>('POST', '/api/projects', { name: 'Target' });
    const response = await fetch(`${server.url}/api/conversations/${conversationId}/archive`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    const imported = await importArchive(
      new Uint8Array(await response.arrayBuffer()),
      `?project_id=${target.id}`,
    );
    expect(imported.status).toBe(201);
    const result = imported.body as ArchiveImportResult;
    expect(result.projects).toEqual([]);
    const id = result.conversations[0]?.id ?? '';
    const view = await server.call<{ conversation: { project_id: string } }>(
      'GET',
      `/api/conversations/${id}`,
    );
    expect(view.conversation.project_id).toBe(target.id);
    server.fake.push(fakeTextReply('Still here.'));
    const next = await server.call<{ run: { id: string } }>('POST', `/api/conversations/${id}/messages`, {
      text: 'Go on',
    });
    const settled = await server.settled(id, next.run.id);
    expect(settled.messages.at(-1)?.parts).toContainEqual(
      expect.objectContaining({ type: 'text', text: 'Still here.' }),
    );
    const missing = await importArchive(archive, '?project_id=no-such-project');
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
  });

  /** The archive's entries, changed by `change`, zipped again (the manifest as `change` leaves it). */
  function rezip(change: (entries: Record<string, Uint8Array>) => void): Uint8Array {
    const entries = unzipSync(archive);
    change(entries);
    return zipSync(entries as Zippable);
  }

  function manifestOf(entries: Record<string, Uint8Array>): ArchiveManifest {
    return JSON.parse(strFromU8(entries['manifest.json'] ?? new Uint8Array())) as ArchiveManifest;
  }

  const tampered: [string, string, () => Uint8Array][] = [
    [
      'a memory entry changed after export',
      'ARCHIVE_CHECKSUM_MISMATCH',
      () =>
        rezip((entries) => {
          entries['memories.json'] = strToU8(
            strFromU8(entries['memories.json'] ?? new Uint8Array()).replace('Hall B', 'Hall C'),
          );
        }),
    ],
    [
      'an entry changed after export',
      'ARCHIVE_CHECKSUM_MISMATCH',
      () =>
        rezip((entries) => {
          const path = manifestOf(entries).items.find((item) => item.kind === 'conversation')?.path ?? '';
          entries[path] = strToU8(strFromU8(entries[path] ?? new Uint8Array()).replace('Hall B', 'Hall C'));
        }),
    ],
    [
      'a manifest that is not a YouYou manifest',
      'ARCHIVE_INVALID',
      () =>
        rezip((entries) => {
          entries['manifest.json'] = strToU8(
            JSON.stringify({ ...manifestOf(entries), format: 'other.archive' }),
          );
        }),
    ],
    [
      'a manifest of a newer format',
      'ARCHIVE_VERSION_UNSUPPORTED',
      () =>
        rezip((entries) => {
          entries['manifest.json'] = strToU8(JSON.stringify({ ...manifestOf(entries), format_version: 99 }));
        }),
    ],
    [
      'an entry whose path climbs out of the archive',
      'ARCHIVE_UNSAFE_PATH',
      () =>
        rezip((entries) => {
          entries['../../escape.txt'] = strToU8('outside');
        }),
    ],
    [
      'an entry the manifest does not list',
      'ARCHIVE_INVALID',
      () =>
        rezip((entries) => {
          entries['objects/uploads/extra'] = strToU8('smuggled');
        }),
    ],
    [
      'an entry that unpacks beyond the entry limit (a zip bomb)',
      'ARCHIVE_TOO_LARGE',
      () =>
        rezip((entries) => {
          entries['objects/uploads/bomb'] = new Uint8Array(65 * 1024 * 1024);
        }),
    ],
    ['bytes that are not a zip', 'ARCHIVE_INVALID', () => strToU8('this is not a zip file')],
  ];

  it.each(tampered)('%s is refused with %s and nothing is written', async (_name, code, make) => {
    const bytes = make();
    const before = await snapshot();
    const response = await importArchive(bytes);
    expect(response).toMatchObject({ body: { error: { code } } });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await snapshot()).toEqual(before);
  });

  it('rows that fail half-way (a second conversation clashing with the first) import nothing at all', async () => {
    const entries = unzipSync(archive);
    const manifest = manifestOf(entries);
    const conversationItem = manifest.items.find((item) => item.kind === 'conversation');
    const rows = JSON.parse(strFromU8(entries[conversationItem?.path ?? ''] ?? new Uint8Array())) as {
      conversation: Record<string, unknown>;
      tables: { events: Record<string, unknown>[] };
    };
    // The same conversation's rows under a second id, with two events of one seq: the insert of
    // the second conversation fails after the project, uploads and first conversation went in.
    const secondId = '11111111-2222-4333-8444-555555555555';
    const broken = {
      ...rows,
      conversation: { ...rows.conversation, id: secondId },
      tables: { ...rows.tables, events: [...rows.tables.events, rows.tables.events[0]] },
    };
    const files: ArchiveFile[] = manifest.items
      .filter((item) => item.kind !== 'markdown')
      .map((item) => ({ path: item.path, kind: item.kind, bytes: entries[item.path] ?? new Uint8Array() }));
    files.push({
      path: `conversations/${secondId}.json`,
      kind: 'conversation',
      bytes: strToU8(JSON.stringify(broken)),
    });
    const bytes = writeArchive(
      {
        app_version: manifest.app_version,
        scope: 'project',
        projects: manifest.projects,
        conversations: [...manifest.conversations, { id: secondId, title: 'Broken', project_id: projectId }],
      },
      files,
    );
    const before = await snapshot();
    const response = await importArchive(bytes);
    expect(response).toMatchObject({ status: 422, body: { error: { code: 'ARCHIVE_INVALID' } } });
    expect(await snapshot()).toEqual(before);
  });

  it('memories that fail at the last insert (one id twice) import nothing at all, conversations and reports included', async () => {
    const entries = unzipSync(archive);
    const manifest = manifestOf(entries);
    const { memories } = JSON.parse(strFromU8(entries['memories.json'] ?? new Uint8Array())) as {
      memories: unknown[];
    };
    const files: ArchiveFile[] = manifest.items.map((item) => ({
      path: item.path,
      kind: item.kind,
      bytes:
        item.kind === 'memories'
          ? strToU8(JSON.stringify({ memories: [...memories, memories[0]] }))
          : (entries[item.path] ?? new Uint8Array()),
    }));
    const bytes = writeArchive(
      {
        app_version: manifest.app_version,
        scope: 'project',
        projects: manifest.projects,
        conversations: manifest.conversations,
      },
      files,
    );
    const before = await snapshot();
    const response = await importArchive(bytes);
    expect(response).toMatchObject({ status: 422, body: { error: { code: 'ARCHIVE_INVALID' } } });
    expect(await snapshot()).toEqual(before);
  });

  it('a project memory whose project the archive does not hold is ARCHIVE_INVALID', async () => {
    const entries = unzipSync(archive);
    const manifest = manifestOf(entries);
    const { memories } = JSON.parse(strFromU8(entries['memories.json'] ?? new Uint8Array())) as {
      memories: Record<string, unknown>[];
    };
    const stray = { ...memories[0], project_id: '99999999-2222-4333-8444-555555555555' };
    const bytes = writeArchive(
      {
        app_version: manifest.app_version,
        scope: 'project',
        projects: manifest.projects,
        conversations: [],
      },
      [
        {
          path: 'projects.json',
          kind: 'projects',
          bytes: entries['projects.json'] ?? new Uint8Array(),
        },
        { path: 'memories.json', kind: 'memories', bytes: strToU8(JSON.stringify({ memories: [stray] })) },
      ],
    );
    const before = await snapshot();
    const response = await importArchive(bytes);
    expect(response).toMatchObject({
      status: 422,
      body: { error: { code: 'ARCHIVE_INVALID', details: { path: 'memories.json' } } },
    });
    expect(await snapshot()).toEqual(before);
  });

  it('exporting what is not there is NOT_FOUND', async () => {
    expect(await server.request('GET', '/api/projects/nope/archive')).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
    expect(await server.request('GET', '/api/conversations/nope/archive')).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
  });

  it('everything exports as one archive with every project and conversation, and imports whole', async () => {
    const response = await fetch(`${server.url}/api/archive`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const manifest = manifestOf(unzipSync(bytes));
    const before = await snapshot();
    expect(manifest.scope).toBe('everything');
    expect(manifest.projects).toHaveLength(before.projects);
    expect(manifest.conversations).toHaveLength(before.conversations);
    const users = await memoriesOf('scope=user');
    expect(users.map((memory) => memory.content)).toEqual(['Answers in British English']);
    const imported = await importArchive(bytes);
    expect(imported.status).toBe(201);
    const after = await snapshot();
    expect(after.projects).toBe(before.projects * 2);
    expect(after.conversations).toBe(before.conversations * 2);
    // Every memory came along: the user's too, as a user memory with an id of its own.
    expect(after.memories).toBe(before.memories * 2);
    const usersAfter = await memoriesOf('scope=user');
    expect(usersAfter.map((memory) => memory.content)).toEqual([
      'Answers in British English',
      'Answers in British English',
    ]);
    expect(new Set(usersAfter.map((memory) => memory.id)).size).toBe(2);
  });
});
