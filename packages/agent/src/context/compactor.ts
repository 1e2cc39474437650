import type { AgentConfig } from '../config/index.ts';
import type { HookRegistry } from '../hooks/index.ts';
import type { Logger } from '../logging/index.ts';
import { ModelCall } from '../model-call/index.ts';
import type { Message, ModelInfo, ModelRouter } from '../provider/index.ts';
import { applyCompaction, planCompaction, type CompactionPlan } from './compaction-plan.ts';
import { DEFAULT_COMPACT_PROMPT } from './compaction-prompt.ts';
import type { ContextManager } from './context-manager.ts';
import { estimateMessageTokens, estimateTextTokens } from './token-estimate.ts';
import { renderTranscript } from './transcript.ts';

export interface CompactionResult {
  strategy: 'summary' | 'truncation';
  plan: CompactionPlan;
  summary?: string;
  tokensBefore: number;
  tokensAfter: number;
  messagesRemoved: number;
}

export interface CompactRequest {
  context: ContextManager;
  sessionModel: ModelInfo;
  sessionId: string;
  signal: AbortSignal;
  /**
   * Set when the provider rejected the request as too long (spec §4.2, fallback trigger). The
   * estimate just proved wrong, so the context must come out strictly smaller and by enough to
   * fit: at most `OVERFLOW_TARGET` of its size, less when the provider said by how much it was over.
   * A compaction that cannot get there changes nothing and returns `undefined`.
   */
  overflow?: {
    /** Estimated tokens of what the request carries besides the messages (system prompt, tools). */
    fixedTokens: number;
    /** The provider's limit and the request's size in its own tokens, when it said. */
    limit?: number;
    requested?: number;
  };
}

/** Share of the window the verbatim tail may use after compaction. */
const TAIL_SHARE = 0.25;
/** Share of the summary model's window the transcript may use; the rest is room for the summary. */
const TRANSCRIPT_SHARE = 0.6;
const SUMMARY_ATTEMPTS = 3;
const RECENT_USER_MESSAGES = 3;
/** After an overflow the messages may keep at most this share of their estimated size. */
const OVERFLOW_TARGET = 0.5;
/** Headroom under the provider's reported limit, for the estimate's error. */
const OVERFLOW_LIMIT_MARGIN = 0.8;

/**
 * Shrinks the context (spec §4.2): BeforeCompact, then a summary by `compactModel` (or the session
 * model), falling back to truncation when no summary can be had. The summary request's text never
 * reaches the user's stream.
 */
export class Compactor {
  readonly #router: ModelRouter;
  readonly #hooks: HookRegistry;
  readonly #config: AgentConfig;
  readonly #logger: Logger;

  constructor(router: ModelRouter, hooks: HookRegistry, config: AgentConfig, logger: Logger) {
    this.#router = router;
    this.#hooks = hooks;
    this.#config = config;
    this.#logger = logger;
  }

  /**
   * Compacts, or returns `undefined` when a plugin aborted, there is nothing before the tail, or —
   * after an overflow — the result would not be small enough.
   */
  async compact(request: CompactRequest): Promise<CompactionResult | undefined> {
    const { context } = request;
    const tokensBefore = context.estimatedTokens;
    const { aborted } = await this.#hooks.run('BeforeCompact', {
      sessionId: request.sessionId,
      messageCount: context.messages.length,
      estimatedTokens: tokensBefore,
    });
    if (aborted !== undefined) {
      this.#logger.info(
        { pluginId: aborted.pluginId, reason: aborted.reason },
        'compaction skipped by plugin',
      );
      return undefined;
    }
    const target =
      request.overflow === undefined ? undefined : overflowTarget(tokensBefore, request.overflow);
    const plan = planCompaction(context.messages, context.sizes, {
      // After an overflow the tail gets half of the target; the summary must fit in the rest.
      tailBudget:
        target === undefined
          ? Math.floor(request.sessionModel.contextWindow * TAIL_SHARE)
          : Math.floor(target / 2),
      // Older user messages kept verbatim are what made the overflow retry grow: none then.
      recentUserMessages: target === undefined ? RECENT_USER_MESSAGES : 0,
    });
    if (plan === undefined) return undefined;

    const before = context.messages;
    let summary = await this.#summarise(request, plan);
    let after = applyCompaction(before, plan, summary);
    if (target !== undefined && estimateAll(after) > target && summary !== undefined) {
      this.#logger.warn({ target }, 'the summary is too long to fit after an overflow; truncating instead');
      summary = undefined;
      after = applyCompaction(before, plan, undefined);
    }
    const tokensAfter = estimateAll(after);
    if (target !== undefined && (tokensAfter > target || tokensAfter >= tokensBefore)) {
      this.#logger.warn(
        { target, tokensBefore, tokensAfter },
        'compaction cannot make the overflowing request small enough',
      );
      return undefined;
    }
    context.replace(after);
    return {
      strategy: summary === undefined ? 'truncation' : 'summary',
      plan,
      ...(summary === undefined ? {} : { summary }),
      tokensBefore,
      tokensAfter: context.estimatedTokens,
      messagesRemoved: plan.keptFrom - plan.keptUserMessages.length,
    };
  }

  async #summarise(request: CompactRequest, plan: CompactionPlan): Promise<string | undefined> {
    const modelId = this.#config.compactModel ?? request.sessionModel.id;
    const route = this.#router.find(modelId);
    if (route === undefined) {
      this.#logger.warn({ modelId }, 'compact model is not served by any provider; truncating instead');
      return undefined;
    }
    const prompt = this.#config.compactPrompt ?? DEFAULT_COMPACT_PROMPT;
    const head = request.context.messages.slice(0, plan.keptFrom);
    let budgetTokens = Math.floor(route.model.contextWindow * TRANSCRIPT_SHARE) - estimateTextTokens(prompt);
    for (let attempt = 1; attempt <= SUMMARY_ATTEMPTS && budgetTokens > 0; attempt++) {
      const transcript = renderTranscript(head, budgetTokens * 4);
      const call = new ModelCall({
        provider: route.provider,
        request: {
          model: route.model.id,
          systemPrompt: prompt,
          messages: [
            { role: 'user', content: [{ type: 'text', text: `Conversation transcript:\n\n${transcript}` }] },
          ],
          tools: [],
        },
        signal: request.signal,
        firstChunkTimeoutMs: this.#config.providerFirstChunkTimeoutMs,
        chunkTimeoutMs: this.#config.providerChunkTimeoutMs,
      });
      const outcome = await call.settled();
      const text = call.reply.refused ? '' : call.reply.text;
      if (outcome.failure !== undefined) {
        this.#logger.warn(
          { modelId, error: outcome.failure.toJSON() },
          'summary request failed; truncating instead',
        );
      }
      if (request.signal.aborted) return undefined;
      if (outcome.overflow === undefined)
        return outcome.failure === undefined && text.trim() !== '' ? text.trim() : undefined;
      budgetTokens = Math.floor(budgetTokens / 2);
    }
    return undefined;
  }
}

/** The most the messages may hold after an overflow: a fraction of what failed, or under the limit. */
function overflowTarget(tokensBefore: number, overflow: NonNullable<CompactRequest['overflow']>): number {
  let target = Math.floor(tokensBefore * OVERFLOW_TARGET);
  const { limit, requested } = overflow;
  if (limit !== undefined && requested !== undefined && requested > 0) {
    // Scale by how far over the provider said the whole request was, in its own tokens.
    const total = tokensBefore + overflow.fixedTokens;
    const fitting = Math.floor(total * (limit / requested) * OVERFLOW_LIMIT_MARGIN) - overflow.fixedTokens;
    target = Math.min(target, fitting);
  }
  return Math.max(0, target);
}

function estimateAll(messages: readonly Message[]): number {
  let tokens = 0;
  for (const message of messages) tokens += estimateMessageTokens(message);
  return tokens;
}
