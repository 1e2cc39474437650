import { AgentError, type ToolOutput } from '@youyou/agent';

/**
 * A failure as a tool result the model can act on: `Error [CODE]: message`, the shape the
 * dispatcher uses for its own failures.
 *
 * @example
 * return errorOutput(new AgentError('PATH_NOT_ALLOWED', '…'));
 */
export function errorOutput(error: unknown): ToolOutput {
  const agentError = AgentError.fromUnknown(error, 'TOOL_EXECUTION_ERROR', { source: 'tool' });
  return {
    content: `Error [${agentError.code}]: ${agentError.message}`,
    isError: true,
    metadata: { code: agentError.code },
  };
}
