import type { ImageBlock, ImageMediaType, ToolOutput } from '@youyou/agent';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** An image or audio block a tool returned, kept for clients beside the text the model reads. */
export interface McpMediaBlock {
  type: 'image' | 'audio';
  mediaType: string;
  /** Base64, as MCP carries it. */
  data: string;
}

/** What an MCP result adds to a tool output's `metadata.mcp`. */
export interface McpResultMetadata {
  server: string;
  tool: string;
  media: McpMediaBlock[];
  resourceLinks: { uri: string; name: string; mimeType?: string; description?: string }[];
  structuredContent?: Record<string, unknown>;
}

/** The image formats a model takes (spec §8); an SVG or TIFF stays a described line. */
const MODEL_IMAGE_TYPES: ReadonlySet<string> = new Set<ImageMediaType>([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
]);

function sizeOfBase64(data: string): number {
  return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} kB`;
}

/**
 * Turns an MCP `tools/call` result into a tool output (spec §4.8): text as is; images, audio,
 * resource links and embedded resources as one descriptive line each (what a model without
 * vision reads), their data in `metadata.mcp` for clients; PNG, JPEG, GIF and WebP images also as
 * `images`, which the agent sends to models that take images (decision 0046); structured content
 * as JSON when the server sent no text for it; `isError` kept.
 *
 * @example
 * mapToolResult({ content: [{ type: 'text', text: 'hi' }] }, { server: 'demo', tool: 'echo' });
 * // { content: 'hi', isError: false, metadata: { mcp: { … } } }
 */
export function mapToolResult(result: CallToolResult, source: { server: string; tool: string }): ToolOutput {
  const lines: string[] = [];
  const metadata: McpResultMetadata = { ...source, media: [], resourceLinks: [] };
  const images: ImageBlock[] = [];
  let sawText = false;
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        sawText = true;
        lines.push(block.text);
        break;
      case 'image':
      case 'audio':
        metadata.media.push({ type: block.type, mediaType: block.mimeType, data: block.data });
        lines.push(`[${block.type}: ${block.mimeType}, ${formatBytes(sizeOfBase64(block.data))}]`);
        if (block.type === 'image' && MODEL_IMAGE_TYPES.has(block.mimeType))
          images.push({ type: 'image', mediaType: block.mimeType as ImageMediaType, data: block.data });
        break;
      case 'resource_link':
        metadata.resourceLinks.push({
          uri: block.uri,
          name: block.name,
          ...(block.mimeType === undefined ? {} : { mimeType: block.mimeType }),
          ...(block.description === undefined ? {} : { description: block.description }),
        });
        lines.push(
          `[resource link: ${block.name} <${block.uri}>${block.mimeType === undefined ? '' : ` (${block.mimeType})`}${block.description === undefined ? '' : ` — ${block.description}`}]`,
        );
        break;
      case 'resource': {
        const resource = block.resource;
        if ('text' in resource && typeof resource.text === 'string') {
          sawText = true;
          lines.push(`[resource ${resource.uri}]\n${resource.text}`);
        } else if ('blob' in resource && typeof resource.blob === 'string') {
          lines.push(
            `[resource ${resource.uri}: ${resource.mimeType ?? 'application/octet-stream'}, ${formatBytes(sizeOfBase64(resource.blob))}]`,
          );
        }
        break;
      }
    }
  }
  if (result.structuredContent !== undefined) {
    metadata.structuredContent = result.structuredContent;
    // Servers should repeat structured content as text; when one does not, the model gets the JSON.
    if (!sawText) lines.push(JSON.stringify(result.structuredContent));
  }
  return {
    content: lines.join('\n'),
    isError: result.isError === true,
    metadata: { mcp: metadata },
    ...(images.length === 0 ? {} : { images }),
  };
}
