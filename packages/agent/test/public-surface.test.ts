import * as root from '@youyou/agent';
import * as files from '@youyou/agent/files';
import * as sse from '@youyou/agent/sse';
import { describe, expect, it } from 'vitest';

describe('the public surface of @youyou/agent', () => {
  it('the root entry has what a library user builds with', () => {
    for (const name of [
      'AgentBuilder',
      'Agent',
      'Session',
      'Turn',
      'AgentError',
      'defineTool',
      'abort',
      'continueWith',
      'stopReason',
      'InMemorySessionStorage',
      'JsonlSessionStorage',
      'summarizeRecords',
      'rankMemories',
      'MEMORY_EXTRACTION_PROMPT',
      'DEFAULT_COMPACT_PROMPT',
      'INTERRUPTED_NOTE',
    ])
      expect(root, name).toHaveProperty(name);
  });

  it('the file channel is @youyou/agent/files, and its helpers are on neither entry', () => {
    expect(files).toHaveProperty('FileComponentSource');
    expect(files).toHaveProperty('ComponentStore');
    expect(root).not.toHaveProperty('FileComponentSource');
    expect(root).not.toHaveProperty('ComponentStore');
    for (const helper of ['quoteForCmd', 'writeFileAtomic', 'scanLayer', 'runScript', 'resolveAllowedPath'])
      for (const entry of [root, files]) expect(entry, helper).not.toHaveProperty(helper);
  });

  it('the server-sent events reader is @youyou/agent/sse, the one the providers and the client share', () => {
    expect(sse).toHaveProperty('ServerSentEventParser');
    expect(sse).toHaveProperty('readServerSentEvents');
    expect(root).not.toHaveProperty('ServerSentEventParser');
  });
});
