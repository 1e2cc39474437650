import type { ContentBlock, ImageBlock } from '../content/index.ts';

/** A tool call the model asked for. `arguments` is the raw JSON text the model produced. */
export interface ToolCallRequest {
  callId: string;
  toolName: string;
  arguments: string;
}

export interface SystemMessage {
  role: 'system';
  content: string;
}

export interface UserMessage {
  role: 'user';
  content: readonly ContentBlock[];
}

/**
 * A model reply. `status: 'incomplete'` marks a reply cut short by cancellation; its text is kept.
 * `providerMetadata` carries what a provider needs to replay the reply (e.g. thinking signatures).
 */
export interface AssistantMessage {
  role: 'assistant';
  content: string;
  reasoning?: string;
  toolCalls: readonly ToolCallRequest[];
  status: 'complete' | 'incomplete';
  providerMetadata?: Readonly<Record<string, unknown>>;
}

/**
 * The result of one tool call, answering the assistant message's call with the same `callId`.
 * `images` are set only for a model that takes images, in the turn the tool ran (decision 0046);
 * `content` says in words that they are there, so a provider may always send it alone.
 */
export interface ToolResultMessage {
  role: 'tool';
  callId: string;
  toolName: string;
  content: string;
  isError: boolean;
  images?: readonly ImageBlock[];
}

/** The normalised message list every provider receives (spec §4.2). */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;
