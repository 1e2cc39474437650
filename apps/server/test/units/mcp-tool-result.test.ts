import { describe, expect, it } from 'vitest';
import { mapToolResult } from '../../src/mcp/index.ts';

const PNG_BASE64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64');
const source = { server: 'shots', tool: 'capture' };

describe('MCP results as tool outputs (decision 0046)', () => {
  it('a PNG image block becomes an image for vision models beside its text line; SVG and audio stay lines', () => {
    const output = mapToolResult(
      {
        content: [
          { type: 'text', text: 'Captured.' },
          { type: 'image', mimeType: 'image/png', data: PNG_BASE64 },
          { type: 'image', mimeType: 'image/svg+xml', data: Buffer.from('<svg/>').toString('base64') },
          { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
        ],
      },
      source,
    );
    expect(output.content).toBe(
      'Captured.\n[image: image/png, 8 B]\n[image: image/svg+xml, 6 B]\n[audio: audio/wav, 4 B]',
    );
    expect(output.images).toEqual([{ type: 'image', mediaType: 'image/png', data: PNG_BASE64 }]);
    expect((output.metadata?.['mcp'] as { media: unknown[] }).media).toHaveLength(3);
  });

  it('a result without images has no images field', () => {
    expect(mapToolResult({ content: [{ type: 'text', text: 'hi' }] }, source).images).toBeUndefined();
  });
});
