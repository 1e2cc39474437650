import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupCommand, restoreCommand } from '../src/backup/index.ts';
import type { CommandIo } from '../src/cli/index.ts';
import { createTestDatabase } from './support/databases.ts';
import { sendFirstMessage, startTestServer, type TestServer } from './support/test-server.ts';

function captured(cwd: string): CommandIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (text: string) => void (io.out += text),
    stderr: (text: string) => void (io.err += text),
    environment: {},
    cwd,
  };
  return io;
}

describe('youyou backup and restore (SQLite)', () => {
  let server: TestServer;
  let conversationId: string;
  let uploadId: string;
  const uploadBytes = 'backup me: 备份\n';

  beforeAll(async () => {
    server = await startTestServer({ database: await createTestDatabase('sqlite') });
    const form = new FormData();
    form.set('file', new File([uploadBytes], 'notes.txt', { type: 'text/plain' }));
    uploadId = (await server.call<{ id: string }>('POST', '/api/uploads', form)).id;
    const sent = await sendFirstMessage(server, 'Keep this conversation.', { attachments: [uploadId] });
    conversationId = sent.conversationId;
    await server.settled(sent.conversationId, sent.runId);
  });
  afterAll(() => server.close());

  it('backs up a running server into one file and restores it into an empty data directory', async () => {
    const io = captured(server.directories.root);
    const archive = join(server.directories.root, 'backup.tar');
    // Online: the server keeps running while the snapshot is taken.
    expect(
      await backupCommand(['--data-dir', server.directories.dataDirectory, '--output', archive], io),
    ).toBe(0);
    expect(io.out).toMatch(/backup\.tar: \d+ file\(s\)/);

    const restored = join(server.directories.root, 'restored');
    expect(await restoreCommand([archive, '--data-dir', restored], io)).toBe(0);
    expect(io.out).toMatch(/restored \d+ file\(s\)/);
    await server.restart({ dataDirectory: restored });
    const view = JSON.stringify(await server.call('GET', `/api/conversations/${conversationId}`));
    expect(view).toContain('Keep this conversation.');
    const content = await server.request<string>('GET', `/api/uploads/${uploadId}/content`);
    expect(content.status).toBe(200);
    expect(createHash('sha256').update(String(content.body)).digest('hex')).toBe(
      createHash('sha256').update(uploadBytes).digest('hex'),
    );
    // The key that encrypts provider keys came along: the provider still works.
    const again = await server.call<{ run: { id: string } }>(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      {
        text: 'Still there?',
      },
    );
    expect((await server.settled(conversationId, again.run.id)).messages.length).toBeGreaterThan(2);
  });

  it('refuses to restore over a workbench without --force, and refuses a file that is not a backup', async () => {
    const io = captured(server.directories.root);
    const archive = join(server.directories.root, 'second.tar');
    expect(
      await backupCommand(['--data-dir', server.directories.dataDirectory, '--output', archive], io),
    ).toBe(0);
    expect(await restoreCommand([archive, '--data-dir', server.directories.dataDirectory], io)).toBe(2);
    expect(io.err).toMatch(/already holds a workbench; pass --force/);
    const bogus = join(server.directories.root, 'bogus.tar');
    await writeFile(bogus, 'not a tar');
    expect(await restoreCommand([bogus, '--data-dir', join(server.directories.root, 'elsewhere')], io)).toBe(
      2,
    );
    expect(io.err).toMatch(/not a youyou backup/);
    // A refused restore changed nothing.
    expect((await readFile(join(server.directories.dataDirectory, 'token'), 'utf8')).length).toBeGreaterThan(
      10,
    );
  });

  it('refuses to overwrite an existing backup file', async () => {
    const io = captured(server.directories.root);
    const archive = join(server.directories.root, 'once.tar');
    expect(
      await backupCommand(['--data-dir', server.directories.dataDirectory, '--output', archive], io),
    ).toBe(0);
    expect(
      await backupCommand(['--data-dir', server.directories.dataDirectory, '--output', archive], io),
    ).toBe(2);
    expect(io.err).toMatch(/exists; name another --output/);
  });
});
