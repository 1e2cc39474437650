import type { CommandDescriptor, ExtensionsChangedPayload } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { installExtension } from './support/extensions.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { collectWorkbenchEvents } from './support/workbench-stream.ts';

describe.each(DATABASE_KINDS)('an extension’s commands and the workbench stream on %s', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function extensionCommands(): Promise<string[]> {
    const { commands } = await server.call<{ commands: CommandDescriptor[] }>('GET', '/api/commands');
    return commands.filter((command) => command.source === 'extension').map((command) => command.name);
  }

  it('installing, disabling, enabling and uninstalling each tell every tab at once, and the command list follows each', async () => {
    const seen: string[][] = [];
    const events = await collectWorkbenchEvents(server, 4, async () => {
      await installExtension(server);
      seen.push(await extensionCommands());
      await server.call('PATCH', '/api/extensions/example', { enabled: false });
      seen.push(await extensionCommands());
      await server.call('PATCH', '/api/extensions/example', { enabled: true });
      seen.push(await extensionCommands());
      await server.call('DELETE', '/api/extensions/example');
      seen.push(await extensionCommands());
    });
    // Its settings section coming and going also sends `settings.schema_changed`: not this test's.
    const changes = events.filter((event) => event.type === 'extensions.changed');
    expect(changes.map((event) => [event.type, (event.payload as ExtensionsChangedPayload).change])).toEqual([
      ['extensions.changed', 'installed'],
      ['extensions.changed', 'disabled'],
      ['extensions.changed', 'enabled'],
      ['extensions.changed', 'uninstalled'],
    ]);
    expect(seen[0]).toEqual(expect.arrayContaining(['city-report', 'packing-list']));
    expect(seen[1]).toEqual([]);
    expect(seen[2]).toEqual(expect.arrayContaining(['city-report', 'packing-list']));
    expect(seen[3]).toEqual([]);
  }, 30_000);
});
