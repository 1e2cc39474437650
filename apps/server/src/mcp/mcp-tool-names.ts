import { MCP_TOOL_SEPARATOR } from '@youyou/contracts';

/** Tool names providers accept (OpenAI's function-name rule, the strictest). */
const MAX_TOOL_NAME = 64;

/**
 * `<server>__<tool>`, with characters outside `[A-Za-z0-9_-]` replaced by `_` and the whole cut to
 * 64 characters, so every provider accepts it. `undefined` when the tool's name is empty.
 *
 * @example
 * namespacedToolName('fs', 'read.file'); // 'fs__read_file'
 */
export function namespacedToolName(server: string, tool: string): string | undefined {
  const cleaned = tool.replace(/[^A-Za-z0-9_-]/g, '_');
  if (cleaned === '') return undefined;
  return `${server}${MCP_TOOL_SEPARATOR}${cleaned}`.slice(0, MAX_TOOL_NAME);
}
