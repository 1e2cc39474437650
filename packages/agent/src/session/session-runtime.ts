import type { AgentConfig } from '../config/index.ts';
import type { Compactor } from '../context/index.ts';
import type { ContextManager } from '../context/index.ts';
import type { HookRegistry } from '../hooks/index.ts';
import type { Logger } from '../logging/index.ts';
import type { Memory } from '../memory/index.ts';
import type { MemoryManager } from '../memory/index.ts';
import type { SystemPrompt, SystemPromptBuilder } from '../prompt/index.ts';
import type { Message, RoutedModel } from '../provider/index.ts';
import type { SkillDefinition } from '../skills/index.ts';
import type { ToolDispatcher } from '../tools/index.ts';
import type { SessionWriter } from './session-writer.ts';

/** What a session runs with; fixed when the session starts (new components wait for the next one). */
export interface SessionRuntime {
  model: RoutedModel;
  dispatcher: ToolDispatcher;
  skills: ReadonlyMap<string, SkillDefinition>;
  hooks: HookRegistry;
  compactor: Compactor;
  memory: MemoryManager;
  prompt: SystemPromptBuilder;
  config: AgentConfig;
  logger: Logger;
  cwd: string;
  home: string;
  /** Where attached files and images may come from. */
  allowedRoots: readonly string[];
  namespace: string;
}

/** A session's mutable state, shared by its turns. */
export interface SessionState {
  readonly sessionId: string;
  readonly runtime: SessionRuntime;
  readonly context: ContextManager;
  readonly writer: SessionWriter;
  /** The next event sequence number. */
  sequence: number;
  memories: readonly Memory[];
  systemPrompt: SystemPrompt | undefined;
  /** Messages not yet seen by memory extraction. */
  unextracted: Message[];
  completedTurns: number;
  titled: boolean;
  /** User and assistant messages so far, as `SessionSummary.messageCount` counts them. */
  messageCount: number;
}

export function appendMessage(state: SessionState, message: Message): void {
  state.context.append(message);
  if (message.role === 'user' || message.role === 'assistant') state.messageCount++;
  if (state.runtime.memory.enabled) state.unextracted.push(message);
}
