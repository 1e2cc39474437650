import type { AssistantMessage, ChatRequest, ContentBlock, ToolResultMessage } from '@youyou/agent';
import { fileAsText } from '../file-blocks/index.ts';
import type { ResolvedModel } from '../models/index.ts';
import type { OpenAICompatibleOptions, ReasoningHistory } from './openai-compatible-options.ts';

type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { filename: string; file_data: string } };

/** Plain text when the blocks are all text (every server accepts it), else content parts. */
function userContent(blocks: readonly ContentBlock[]): string | ContentPart[] {
  const needsParts = blocks.some(
    (block) => block.type === 'image' || (block.type === 'file' && block.text === undefined),
  );
  if (!needsParts) {
    return blocks
      .map((block) => (block.type === 'file' ? fileAsText(block) : block.type === 'text' ? block.text : ''))
      .join('\n\n');
  }
  const parts: ContentPart[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', text: block.text });
        break;
      case 'image':
        parts.push({ type: 'image_url', image_url: { url: `data:${block.mediaType};base64,${block.data}` } });
        break;
      case 'file':
        if (block.text === undefined && block.data !== undefined) {
          parts.push({
            type: 'file',
            file: { filename: block.name, file_data: `data:${block.mediaType};base64,${block.data}` },
          });
        } else {
          parts.push({ type: 'text', text: fileAsText(block) });
        }
        break;
    }
  }
  return parts;
}

function assistantMessage(
  message: AssistantMessage,
  reasoningHistory: ReasoningHistory,
): Record<string, unknown> {
  const hasToolCalls = message.toolCalls.length > 0;
  const result: Record<string, unknown> = {
    role: 'assistant',
    content: message.content.length > 0 || !hasToolCalls ? message.content : null,
  };
  if (hasToolCalls) {
    result['tool_calls'] = message.toolCalls.map((call) => ({
      id: call.callId,
      type: 'function',
      function: { name: call.toolName, arguments: call.arguments.trim().length > 0 ? call.arguments : '{}' },
    }));
  }
  if (reasoningHistory === 'always' && message.reasoning !== undefined) {
    result['reasoning_content'] = message.reasoning;
  } else if (reasoningHistory === 'tool-calls' && hasToolCalls) {
    result['reasoning_content'] = message.reasoning ?? '';
  }
  return result;
}

/**
 * The session's messages in Chat Completions form, after the system prompt.
 *
 * @example
 * toOpenAIMessages({ model: 'm', systemPrompt: 'Be brief.', tools: [],
 *   messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
 * // [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]
 */
export function toOpenAIMessages(
  request: ChatRequest,
  reasoningHistory: ReasoningHistory = 'never',
): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [];
  if (request.systemPrompt.length > 0) messages.push({ role: 'system', content: request.systemPrompt });
  // A tool message takes text only: a step's tool images follow its tool messages as one user
  // message (decision 0046), since a user message between tool messages would break the step.
  let toolImages: ContentPart[] = [];
  const flushToolImages = (): void => {
    if (toolImages.length === 0) return;
    messages.push({ role: 'user', content: toolImages });
    toolImages = [];
  };
  for (const message of request.messages) {
    if (message.role !== 'tool') flushToolImages();
    switch (message.role) {
      case 'system':
        messages.push({ role: 'system', content: message.content });
        break;
      case 'user':
        messages.push({ role: 'user', content: userContent(message.content) });
        break;
      case 'assistant':
        messages.push(assistantMessage(message, reasoningHistory));
        break;
      case 'tool':
        messages.push({ role: 'tool', tool_call_id: message.callId, content: toolResultText(message) });
        toolImages.push(...toolImageParts(message));
        break;
    }
  }
  flushToolImages();
  return messages;
}

/** A tool result's images as user content parts, introduced by a line naming the call. */
function toolImageParts(message: ToolResultMessage): ContentPart[] {
  const images = message.images ?? [];
  if (images.length === 0) return [];
  return [
    {
      type: 'text',
      text: `The ${images.length === 1 ? 'image' : `${images.length} images`} returned by the tool call ${message.callId} (${message.toolName}):`,
    },
    ...images.map((image): ContentPart => ({
      type: 'image_url',
      image_url: { url: `data:${image.mediaType};base64,${image.data}` },
    })),
  ];
}

/**
 * The marker a failed tool result's text starts with. Chat Completions' tool message has no error
 * flag (Anthropic's `is_error` has no counterpart), so without it a refusal such as "Access denied
 * - path outside allowed directories" reads to the model like the tool's answer.
 */
const TOOL_ERROR_MARKER = '[tool error]';

function toolResultText(message: { content: string; isError: boolean }): string {
  if (!message.isError || message.content.startsWith(TOOL_ERROR_MARKER)) return message.content;
  return `${TOOL_ERROR_MARKER} ${message.content}`;
}

/**
 * The JSON body of a streaming `POST /chat/completions`.
 *
 * @example
 * const body = buildChatCompletionsBody(request, model, { id: 'local', baseURL });
 * // { model: 'qwen3:8b', messages: [...], stream: true, stream_options: { include_usage: true } }
 */
export function buildChatCompletionsBody(
  request: ChatRequest,
  model: ResolvedModel,
  options: Pick<
    OpenAICompatibleOptions,
    'streamUsage' | 'maxTokensField' | 'reasoningHistory' | 'extraBody' | 'transformBody'
  >,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: model.serverId,
    messages: toOpenAIMessages(request, options.reasoningHistory),
    stream: true,
  };
  if (options.streamUsage !== false) body['stream_options'] = { include_usage: true };
  if (request.tools.length > 0) {
    body['tools'] = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (request.temperature !== undefined) body['temperature'] = request.temperature;
  if (request.maxTokens !== undefined) body[options.maxTokensField ?? 'max_tokens'] = request.maxTokens;
  if (request.reasoningEffort !== undefined && model.capabilities.reasoning !== false) {
    body['reasoning_effort'] = request.reasoningEffort;
  }
  if (options.extraBody !== undefined) Object.assign(body, options.extraBody);
  return options.transformBody === undefined ? body : options.transformBody(body, { request, model });
}
