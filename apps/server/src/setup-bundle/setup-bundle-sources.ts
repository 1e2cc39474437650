import type { ExtensionHost } from '../extensions/index.ts';
import type { LibraryService } from '../library/index.ts';
import type { McpServerRepository } from '../mcp/index.ts';
import type { MemoryService } from '../memory/index.ts';
import type { ProfileService } from '../profiles/index.ts';
import type { SettingsService } from '../settings/index.ts';
import type { ProjectRepository } from '../storage/index.ts';

/** The services a setup bundle is read from and written to. */
export interface SetupBundleSources {
  settings: SettingsService;
  profiles: ProfileService;
  library: LibraryService;
  memory: MemoryService;
  mcpServers: McpServerRepository;
  extensions: ExtensionHost;
  projects: ProjectRepository;
  /** Checks a project directory as `POST /api/projects` does; throws when it is not allowed here. */
  checkDirectory: (directory: string) => Promise<string>;
  /** Drops a server's open connection after its configuration changed. */
  forgetMcpServer: (id: string) => Promise<void>;
}
