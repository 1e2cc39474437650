import { randomUUID } from 'node:crypto';
import type { AgentConfig } from '../config/index.ts';
import { renderTranscript } from '../context/index.ts';
import { AgentError } from '../errors/index.ts';
import type { Logger } from '../logging/index.ts';
import { ModelCall } from '../model-call/index.ts';
import type { Message, ModelRouter } from '../provider/index.ts';
import type { Memory, MemoryStorage } from './memory-storage.ts';

/** The namespace of memories outside any project (spec §4.7). */
export const GLOBAL_NAMESPACE = 'global';

const EXISTING_LIMIT = 100;
const TRANSCRIPT_CHARACTERS = 60_000;

export const MEMORY_EXTRACTION_PROMPT = `You maintain an AI agent's long-term memory about a user and their project. Read the existing memories and the new conversation, then output the memories to save.

Save only durable facts that will help in future conversations: the user's preferences and working style, facts about the project, decisions and their reasons, recurring problems and their fixes. Do not save small talk, one-off requests, or anything secret (keys, passwords, tokens).

When a new fact updates or repeats an existing memory, reuse that memory's id and write the full updated content. Otherwise omit the id.

Answer with JSON only, no prose, in exactly this shape:
{"memories": [{"id": "existing-id-or-omit", "content": "one self-contained sentence", "tags": ["short", "tags"]}]}
Answer {"memories": []} when there is nothing worth saving.`;

/**
 * Loads memories into new sessions and extracts new ones at close and at checkpoints (spec §4.7).
 * Failures are logged and swallowed: memory never blocks a session.
 */
export class MemoryManager {
  readonly #storage: MemoryStorage | undefined;
  readonly #router: ModelRouter;
  readonly #config: AgentConfig;
  readonly #logger: Logger;

  constructor(storage: MemoryStorage | undefined, router: ModelRouter, config: AgentConfig, logger: Logger) {
    this.#storage = storage;
    this.#router = router;
    this.#config = config;
    this.#logger = logger;
  }

  get enabled(): boolean {
    return this.#storage !== undefined;
  }

  /** The top `memoryMaxItems` memories of a namespace, for the system prompt. */
  async load(namespace: string): Promise<readonly Memory[]> {
    if (this.#storage === undefined || this.#config.memoryMaxItems <= 0) return [];
    try {
      return (await this.#storage.search(namespace, '', this.#config.memoryMaxItems)).slice(
        0,
        this.#config.memoryMaxItems,
      );
    } catch (error) {
      this.#logger.error(
        { namespace, error: String(error) },
        'loading memories failed; the session starts without them',
      );
      return [];
    }
  }

  /**
   * Asks the memory model for memories in `messages` and upserts them. Returns how many were saved;
   * never throws.
   */
  async extract(options: {
    sessionId: string;
    namespace: string;
    sessionModelId: string;
    messages: readonly Message[];
  }): Promise<number> {
    const storage = this.#storage;
    if (storage === undefined || options.messages.length === 0) return 0;
    try {
      const modelId = this.#config.memoryModel ?? options.sessionModelId;
      const route = this.#router.route(modelId);
      const existing = (await storage.load(options.namespace)).slice(0, EXISTING_LIMIT);
      const existingIds = new Set(existing.map((memory) => memory.id));
      const known =
        existing.length === 0
          ? '(none)'
          : existing.map((memory) => `- [${memory.id}] ${memory.content}`).join('\n');
      const transcript = renderTranscript(options.messages, TRANSCRIPT_CHARACTERS);
      const signal = AbortSignal.timeout(this.#config.providerFirstChunkTimeoutMs * 2);
      const call = new ModelCall({
        provider: route.provider,
        request: {
          model: route.model.id,
          systemPrompt: MEMORY_EXTRACTION_PROMPT,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: `Existing memories:\n${known}\n\nNew conversation:\n\n${transcript}` },
              ],
            },
          ],
          tools: [],
        },
        signal,
        firstChunkTimeoutMs: this.#config.providerFirstChunkTimeoutMs,
        chunkTimeoutMs: this.#config.providerChunkTimeoutMs,
      });
      const outcome = await call.settled();
      if (signal.aborted) throw new AgentError('PROVIDER_ERROR', 'The memory model did not answer in time.');
      if (outcome.failure !== undefined) throw outcome.failure;
      if (outcome.overflow !== undefined) throw new AgentError('PROVIDER_ERROR', outcome.overflow.message);
      const text = call.reply.text;
      const candidates = parseMemories(text);
      for (const candidate of candidates) {
        await storage.upsert({
          id: candidate.id !== undefined && existingIds.has(candidate.id) ? candidate.id : randomUUID(),
          namespace: options.namespace,
          content: candidate.content,
          source: options.sessionId,
          tags: candidate.tags,
        });
      }
      return candidates.length;
    } catch (error) {
      this.#logger.error(
        { sessionId: options.sessionId, error: error instanceof AgentError ? error.toJSON() : String(error) },
        'memory extraction failed; the session goes on without it',
      );
      return 0;
    }
  }
}

interface MemoryCandidate {
  id?: string;
  content: string;
  tags: string[];
}

/** Reads the model's JSON answer, tolerating code fences and prose around it. */
export function parseMemories(text: string): MemoryCandidate[] {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end < start)
    throw new AgentError('PROVIDER_ERROR', 'The memory model did not answer with JSON.', {
      retryable: false,
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start, end + 1));
  } catch (error) {
    throw new AgentError('PROVIDER_ERROR', `The memory model answered with invalid JSON: ${String(error)}`, {
      retryable: false,
    });
  }
  const list = (parsed as { memories?: unknown }).memories;
  if (!Array.isArray(list))
    throw new AgentError('PROVIDER_ERROR', 'The memory model answer has no "memories" list.', {
      retryable: false,
    });
  return list.flatMap((item: unknown): MemoryCandidate[] => {
    if (typeof item !== 'object' || item === null) return [];
    const { id, content, tags } = item as Record<string, unknown>;
    if (typeof content !== 'string' || content.trim() === '') return [];
    return [
      {
        ...(typeof id === 'string' && id !== '' ? { id } : {}),
        content: content.trim(),
        tags: Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [],
      },
    ];
  });
}
