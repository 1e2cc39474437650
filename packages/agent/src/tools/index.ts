export type { ToolContext, ToolHandler, ToolInput, ToolOutput } from './tool-handler.ts';
export { ToolDispatcher } from './tool-dispatcher.ts';
export type { DispatchContext, ToolCallOutcome } from './tool-dispatcher.ts';
export { MAX_TOOL_OUTPUT_BYTES, truncateOutput } from './truncate-output.ts';
export { defineTool, isStandardSchema } from './define-tool.ts';
export type {
  ArgumentsSchema,
  JsonSchemaObject,
  JsonSchemaToolDefinition,
  SchemaToolDefinition,
  ToolCallContext,
} from './define-tool.ts';
