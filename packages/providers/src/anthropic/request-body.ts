import type {
  AssistantMessage,
  ChatRequest,
  ContentBlock,
  ReasoningEffort,
  ToolResultMessage,
} from '@youyou/agent';
import { fileAsText } from '../file-blocks/index.ts';
import type { ResolvedModel } from '../models/index.ts';
import type { AnthropicOptions } from './anthropic-options.ts';
import { readReplayableThinking } from './thinking-metadata.ts';

type Block = { type: string } & Record<string, unknown>;
interface Turn {
  role: 'user' | 'assistant';
  content: Block[];
}

/** Thinking budgets by effort; `none` turns thinking off. */
const DEFAULT_THINKING_BUDGETS: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 1_024,
  low: 4_096,
  medium: 10_000,
  high: 24_000,
  xhigh: 32_000,
  max: 48_000,
};
const MINIMUM_THINKING_BUDGET = 1_024;
const DEFAULT_MAX_TOKENS_CEILING = 32_000;

function userBlocks(blocks: readonly ContentBlock[]): Block[] {
  const result: Block[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        if (block.text.length > 0) result.push({ type: 'text', text: block.text });
        break;
      case 'image':
        result.push({
          type: 'image',
          source: { type: 'base64', media_type: block.mediaType, data: block.data },
        });
        break;
      case 'file':
        if (block.text === undefined && block.data !== undefined && block.mediaType === 'application/pdf') {
          result.push({
            type: 'document',
            title: block.name,
            source: { type: 'base64', media_type: 'application/pdf', data: block.data },
          });
        } else {
          result.push({ type: 'text', text: fileAsText(block) });
        }
        break;
    }
  }
  return result;
}

/** A tool result's `content`: its text, or text and image blocks when it returned images. */
function toolResultContent(message: ToolResultMessage): { content?: string | Block[] } {
  const images = message.images ?? [];
  if (images.length === 0) return message.content.length > 0 ? { content: message.content } : {};
  return {
    content: [
      ...(message.content.length > 0 ? [{ type: 'text', text: message.content }] : []),
      ...images.map((image) => ({
        type: 'image',
        source: { type: 'base64', media_type: image.mediaType, data: image.data },
      })),
    ],
  };
}

function parseToolInput(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // A model that produced broken JSON is told so by the tool result; the history stays sendable.
  }
  return {};
}

function assistantBlocks(message: AssistantMessage, model: ResolvedModel): Block[] {
  const blocks: Block[] = [];
  if (message.content.length > 0) blocks.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls) {
    blocks.push({
      type: 'tool_use',
      id: call.callId,
      name: call.toolName,
      input: parseToolInput(call.arguments),
    });
  }
  if (blocks.length === 0) return blocks;
  return [...readReplayableThinking(message.providerMetadata, model.serverId), ...blocks];
}

/**
 * The session's messages as Anthropic turns, and the system text. The system prompt and any
 * system messages before the first turn go to the top-level `system`; a system message later
 * in the conversation (a compaction summary, an injected instruction) keeps its place as a
 * `<system>` text block in a user turn, since the API has no mid-conversation system role.
 * Consecutive same-role messages merge into one turn (tool results first, as the API requires),
 * empty text is dropped, and a trailing assistant turn loses trailing whitespace.
 *
 * @example
 * const { system, messages } = toAnthropicMessages(request, model);
 * // system: ['You are terse.'], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]
 */
export function toAnthropicMessages(
  request: ChatRequest,
  model: ResolvedModel,
): { system: string[]; messages: Turn[] } {
  const system: string[] = request.systemPrompt.length > 0 ? [request.systemPrompt] : [];
  const turns: Turn[] = [];
  const push = (role: Turn['role'], blocks: Block[]): void => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last !== undefined && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of request.messages) {
    switch (message.role) {
      case 'system':
        if (turns.length === 0) system.push(message.content);
        else push('user', [{ type: 'text', text: `<system>\n${message.content}\n</system>` }]);
        break;
      case 'user':
        push('user', userBlocks(message.content));
        break;
      case 'assistant':
        push('assistant', assistantBlocks(message, model));
        break;
      case 'tool':
        push('user', [
          {
            type: 'tool_result',
            tool_use_id: message.callId,
            ...toolResultContent(message),
            ...(message.isError ? { is_error: true } : {}),
          },
        ]);
        break;
    }
  }
  for (const turn of turns) {
    if (turn.role === 'user' && turn.content.some((block) => block.type === 'tool_result')) {
      turn.content = [
        ...turn.content.filter((block) => block.type === 'tool_result'),
        ...turn.content.filter((block) => block.type !== 'tool_result'),
      ];
    }
  }
  const last = turns.at(-1);
  const lastBlock = last?.content.at(-1);
  if (last?.role === 'assistant' && lastBlock?.type === 'text' && typeof lastBlock['text'] === 'string') {
    lastBlock['text'] = lastBlock['text'].trimEnd();
  }
  return { system, messages: turns };
}

function thinkingSettings(
  effort: Exclude<ReasoningEffort, 'none'>,
  maxTokens: number,
  options: Pick<AnthropicOptions, 'thinkingMode' | 'thinkingBudgets'>,
): Record<string, unknown> | undefined {
  if (options.thinkingMode === 'adaptive') {
    return {
      thinking: { type: 'adaptive' },
      // Adaptive thinking takes low | medium | high.
      output_config: {
        effort: effort === 'minimal' ? 'low' : effort === 'xhigh' || effort === 'max' ? 'high' : effort,
      },
    };
  }
  const wanted = options.thinkingBudgets?.[effort] ?? DEFAULT_THINKING_BUDGETS[effort];
  const budget = Math.min(wanted, maxTokens - MINIMUM_THINKING_BUDGET);
  if (budget < MINIMUM_THINKING_BUDGET) return undefined;
  return { thinking: { type: 'enabled', budget_tokens: budget } };
}

/**
 * The JSON body of a streaming `POST /v1/messages`. `max_tokens` (required by the API) is the
 * request's, else `defaultMaxTokens`, else the model's output limit capped at 32,000.
 * `reasoningEffort` turns on thinking for models that reason (and drops `temperature`, which
 * thinking does not allow).
 *
 * @example
 * const body = buildMessagesBody(request, model, {});
 * // { model: 'claude-sonnet-4-5', max_tokens: 32000, system: [...], messages: [...], stream: true }
 */
export function buildMessagesBody(
  request: ChatRequest,
  model: ResolvedModel,
  options: Pick<
    AnthropicOptions,
    'defaultMaxTokens' | 'thinkingMode' | 'thinkingBudgets' | 'promptCaching' | 'transformBody'
  >,
): Record<string, unknown> {
  const maxTokens =
    request.maxTokens ??
    options.defaultMaxTokens ??
    Math.min(model.maxOutputTokens ?? DEFAULT_MAX_TOKENS_CEILING, DEFAULT_MAX_TOKENS_CEILING);
  const { system, messages } = toAnthropicMessages(request, model);
  const caching = options.promptCaching !== false;
  const body: Record<string, unknown> = { model: model.serverId, max_tokens: maxTokens };
  if (system.length > 0) {
    body['system'] = [
      {
        type: 'text',
        text: system.join('\n\n'),
        ...(caching ? { cache_control: { type: 'ephemeral' } } : {}),
      },
    ];
  }
  if (caching) {
    const lastBlock = messages.at(-1)?.content.at(-1);
    if (lastBlock !== undefined && lastBlock.type !== 'thinking' && lastBlock.type !== 'redacted_thinking') {
      lastBlock['cache_control'] = { type: 'ephemeral' };
    }
  }
  body['messages'] = messages;
  if (request.tools.length > 0) {
    body['tools'] = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
    }));
  }
  const thinking =
    request.reasoningEffort !== undefined &&
    request.reasoningEffort !== 'none' &&
    model.capabilities.reasoning !== false
      ? thinkingSettings(request.reasoningEffort, maxTokens, options)
      : undefined;
  if (thinking !== undefined) Object.assign(body, thinking);
  else if (request.temperature !== undefined) body['temperature'] = request.temperature;
  body['stream'] = true;
  return options.transformBody === undefined ? body : options.transformBody(body, { request, model });
}
