import type { ComponentSource, ToolContext, ToolHandler } from '@youyou/agent';
import type { McpResultMetadata } from './mcp-tool-result.ts';

/** An image or audio block of an MCP result once stored: what the tool result's event carries. */
export interface StoredMedia {
  upload_id: string;
  name: string;
  media_type: string;
  size: number;
}

/** Stores one block's bytes for the run a call belongs to; undefined when it cannot (no run). */
export type StoreMedia = (
  context: ToolContext,
  media: { name: string; mediaType: string; bytes: Buffer },
) => Promise<StoredMedia | undefined>;

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
};

function withStoredMedia(handler: ToolHandler, store: StoreMedia): ToolHandler {
  return {
    ...handler,
    execute: async (input, context) => {
      const output = await handler.execute(input, context);
      if (typeof output === 'string') return output;
      const mcp = output.metadata?.['mcp'] as McpResultMetadata | undefined;
      if (mcp === undefined || mcp.media.length === 0) return output;
      const stored: StoredMedia[] = [];
      const media: Record<string, unknown>[] = [];
      for (const [index, block] of mcp.media.entries()) {
        const extension = EXTENSIONS[block.mediaType] ?? 'bin';
        const saved = await store(context, {
          name: `${handler.name}-${String(index + 1)}.${extension}`,
          mediaType: block.mediaType,
          bytes: Buffer.from(block.data, 'base64'),
        });
        if (saved === undefined) {
          media.push({ ...block });
          continue;
        }
        stored.push(saved);
        // The bytes are in the object store now: the event log keeps the reference only.
        media.push({ type: block.type, mediaType: block.mediaType, upload_id: saved.upload_id });
      }
      return {
        ...output,
        metadata: { ...output.metadata, mcp: { ...mcp, media }, attachments: stored },
      };
    },
  };
}

/**
 * MCP tools whose image and audio results are stored as uploads of the conversation (spec §4.8:
 * results mapped, images included): the model still reads the one-line description, the
 * conversation shows the image, and the event log holds a reference instead of base64.
 *
 * @example
 * componentSources: ({ projectId }) => [storingMcpMedia(mcp.componentSource(projectId), store)],
 */
export function storingMcpMedia(inner: ComponentSource, store: StoreMedia): ComponentSource {
  return {
    load: async (options) => {
      const loaded = await inner.load(options);
      const wrap = (layer: typeof loaded.global) => ({
        ...layer,
        tools: layer.tools.map((entry) => ({ ...entry, tool: withStoredMedia(entry.tool, store) })),
      });
      return { ...loaded, global: wrap(loaded.global), project: wrap(loaded.project) };
    },
  };
}
