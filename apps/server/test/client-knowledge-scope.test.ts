import { createWorkbenchClient, type WorkbenchClient } from '@youyou/client';
import type { DocumentView } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

describe.each(DATABASE_KINDS)("the client's knowledge scope of uploads on %s", (kind) => {
  let database: TestDatabase;
  let server: TestServer;
  let client: WorkbenchClient;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
    client = createWorkbenchClient({ baseUrl: server.url, token: server.token });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function settledDocument(uploadId: string): Promise<DocumentView> {
    for (let attempt = 0; attempt < 400; attempt++) {
      const document = await client.getUploadDocument(uploadId).catch(() => undefined);
      if (document !== undefined && document.status !== 'queued' && document.status !== 'parsing')
        return document;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`the document of upload ${uploadId} never settled`);
  }

  it('upload sends knowledgeScope, and setDocumentKnowledgeScope moves the document into the project', async () => {
    const project = await client.createProject({ name: 'Harbour' });
    const file = new File(['# Tide tables\n\nHigh water at dawn.\n'], 'tides.md', { type: 'text/markdown' });
    const upload = await client.upload(file, { projectId: project.id, knowledgeScope: 'conversation' });
    const kept = await settledDocument(upload.id);
    expect(kept.knowledge_scope).toBe('conversation');

    const moved = await client.setDocumentKnowledgeScope(kept.id, 'project');
    expect(moved.knowledge_scope).toBe('project');
    expect((await client.getDocument(kept.id)).knowledge_scope).toBe('project');
  });
});
