import type {
  ContextAssemblyReport,
  MemoryClearRequest,
  MemoryCreate,
  MemoryCreated,
  MemoryExport,
  MemoryItem,
  MemoryList,
  MemoryScope,
  MemorySettings,
  MemoryUpdate,
} from '@youyou/contracts';
import type { Connection } from '../connection/index.ts';

/** Which memories to list. */
export interface MemoryListOptions {
  scope?: MemoryScope;
  projectId?: string;
  /** A substring of the content or tags. */
  query?: string;
  limit?: number;
  offset?: number;
}

/** Memory (spec §4.13) and context assembly reports (spec §4.10), as the workbench client has them. */
export interface MemoryClientMethods {
  /** What the model saw in each model call of a run (a message's id is its run's id). */
  contextReports(runId: string): Promise<ContextAssemblyReport[]>;
  memorySettings(projectId?: string): Promise<MemorySettings>;
  updateMemorySettings(patch: Partial<MemorySettings>): Promise<MemorySettings>;
  listMemories(options?: MemoryListOptions): Promise<MemoryList>;
  /** Writes a memory; `evicted` lists the memories removed to stay within `memory.capacity`. */
  createMemory(input: MemoryCreate): Promise<MemoryCreated>;
  getMemory(id: string): Promise<MemoryItem>;
  updateMemory(id: string, patch: MemoryUpdate): Promise<MemoryItem>;
  deleteMemory(id: string): Promise<void>;
  exportMemories(): Promise<MemoryExport>;
  /** The URL the export downloads from (for a link). */
  memoryExportUrl(): string;
  clearMemories(request?: MemoryClearRequest): Promise<number>;
}

const segment = encodeURIComponent;

/** The memory methods over one connection. */
export function memoryClientMethods(connection: Connection): MemoryClientMethods {
  const json = connection.json.bind(connection);
  return {
    contextReports: async (runId) =>
      (await json<{ reports: ContextAssemblyReport[] }>('GET', `/api/runs/${segment(runId)}/context`))
        .reports,
    memorySettings: (projectId) => json('GET', '/api/memory/settings', { query: { project_id: projectId } }),
    updateMemorySettings: (patch) => json('PUT', '/api/memory/settings', { body: patch }),
    listMemories: (options = {}) =>
      json('GET', '/api/memories', {
        query: {
          scope: options.scope,
          project_id: options.projectId,
          q: options.query,
          limit: options.limit,
          offset: options.offset,
        },
      }),
    createMemory: (input) => json('POST', '/api/memories', { body: input }),
    getMemory: (id) => json('GET', `/api/memories/${segment(id)}`),
    updateMemory: (id, patch) => json('PATCH', `/api/memories/${segment(id)}`, { body: patch }),
    deleteMemory: async (id) => {
      await json('DELETE', `/api/memories/${segment(id)}`);
    },
    exportMemories: () => json('GET', '/api/memories/export'),
    memoryExportUrl: () => connection.url('/api/memories/export'),
    clearMemories: async (request = {}) =>
      (await json<{ deleted: number }>('POST', '/api/memories/clear', { body: request })).deleted,
  };
}
