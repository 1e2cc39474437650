import { AgentError, type ChatRequest, type ContentBlock, type ModelInfo } from '@youyou/agent';
import {
  ContextAssemblyReportSchema,
  DEFAULT_CONTEXT_ASSEMBLY_POLICY,
  type ContextAssemblyPolicy,
  type ContextAssemblyReport,
  type ContextSlot,
} from '@youyou/contracts';
import type { Kysely } from 'kysely';
import type { Schema } from '../database/index.ts';
import type { ServerLogger } from '../logging/index.ts';
import {
  assembleRequest,
  defaultAttachmentOf,
  type AttachmentInfo,
  type ContextInjections,
  type SlotItem,
} from './context-assembler.ts';

/** The memory slot's source: the ranked memories a conversation may see, or off. */
export interface MemorySlotSource {
  forInjection(query: string, projectId: string | null): Promise<{ enabled: boolean; items: SlotItem[] }>;
  /** The memories that reached the model. */
  touch(ids: readonly string[]): Promise<void>;
}

/**
 * The knowledge slot's source: passages for the turn's message (the retrieval helper's Retriever,
 * wrapped), or undefined when there is no index.
 */
export interface KnowledgeSlotSource {
  passages(
    query: string,
    scope: { projectId: string | null; conversationId: string },
    signal: AbortSignal,
  ): Promise<SlotItem[]>;
}

/** The assembly of one run: every model call of it passes `assemble`. */
export interface RunAssembly {
  assemble(request: ChatRequest, model: ModelInfo | undefined, signal: AbortSignal): Promise<ChatRequest>;
  /** Waits until every report of the run is stored. */
  flush(): Promise<void>;
}

export interface ContextServiceOptions {
  db: Kysely<Schema>;
  logger: ServerLogger;
  memory?: MemorySlotSource;
  knowledge?: KnowledgeSlotSource;
  /** Names attachment blocks (the ingest helper's documents); the default reads the block's tag. */
  attachmentOf?: (block: ContentBlock) => AttachmentInfo | undefined;
  policy?: ContextAssemblyPolicy;
}

/** The user's own words in a turn: its text blocks that are not attachments. */
function queryOf(
  request: ChatRequest,
  attachmentOf: (block: ContentBlock) => AttachmentInfo | undefined,
): string {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (message?.role !== 'user') continue;
    return message.content
      .filter((block) => block.type === 'text' && attachmentOf(block) === undefined)
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('\n')
      .slice(0, 2_000);
  }
  return '';
}

/**
 * The CONTEXT_BUDGET_EXCEEDED of a report still over budget after every trim: it names the model,
 * the budget and each slot that is left, largest first.
 */
function budgetExceeded(report: ContextAssemblyReport): AgentError {
  const left = report.slots
    .filter((slot) => slot.tokens > 0)
    .sort((a, b) => b.tokens - a.tokens)
    .map((slot) => `${SLOT_NAMES[slot.slot]} ${slot.tokens}`);
  return new AgentError(
    'CONTEXT_BUDGET_EXCEEDED',
    `The request does not fit the context window of '${report.model_id}' (${report.context_window} tokens, ${report.budget_tokens} after the output reserve of ${report.output_reserve_tokens}) even after trimming: ${left.join(', ')} tokens still need ${report.total_tokens}. It was not sent.`,
    {
      retryable: false,
      details: {
        model: report.model_id,
        context_window: report.context_window,
        budget_tokens: report.budget_tokens,
        total_tokens: report.total_tokens,
        slots: Object.fromEntries(report.slots.map((slot) => [slot.slot, slot.tokens])),
      },
    },
  );
}

const SLOT_NAMES: Readonly<Record<ContextSlot, string>> = {
  system: 'the system prompt and tools',
  memory: 'memory',
  knowledge: 'knowledge',
  history: 'the history',
  current_turn: 'the current message',
  tool_results: 'tool results',
};

/**
 * Context assembly for the workbench's runs (spec §4.10): one assembler for every model request of
 * a top-level run, fed by the memory slot (when memory is on) and the knowledge slot (when an index
 * is wired), and one stored report per model call (`GET /api/runs/:id/context`).
 *
 * @example
 * const assembly = context.forRun({ runId, conversationId, projectId });
 * const request = await assembly.assemble(request, modelInfo, signal);
 */
export class ContextService {
  readonly #options: ContextServiceOptions;
  #knowledge: KnowledgeSlotSource | undefined;
  #attachmentOf: (block: ContentBlock) => AttachmentInfo | undefined;

  constructor(options: ContextServiceOptions) {
    this.#options = options;
    this.#knowledge = options.knowledge;
    this.#attachmentOf = options.attachmentOf ?? defaultAttachmentOf;
  }

  /** Wires the knowledge slot (the retrieval index) once it exists. */
  setKnowledge(source: KnowledgeSlotSource | undefined): void {
    this.#knowledge = source;
  }

  /** Wires how attachment blocks are recognised (the ingest helper's document rendering). */
  setAttachmentReader(reader: (block: ContentBlock) => AttachmentInfo | undefined): void {
    this.#attachmentOf = reader;
  }

  forRun(run: {
    runId: string;
    conversationId: string;
    projectId: string | null;
    policy?: ContextAssemblyPolicy;
  }): RunAssembly {
    const { db, logger, memory } = this.#options;
    const policy = run.policy ?? this.#options.policy ?? DEFAULT_CONTEXT_ASSEMBLY_POLICY;
    const attachmentOf = this.#attachmentOf;
    const knowledge = this.#knowledge;
    let injections: Promise<{ injections: ContextInjections; off: ContextSlot[] }> | undefined;
    let calls = 0;
    let pending: Promise<void> = Promise.resolve();
    const touched = new Set<string>();

    const load = async (
      request: ChatRequest,
      signal: AbortSignal,
    ): Promise<{ injections: ContextInjections; off: ContextSlot[] }> => {
      const query = queryOf(request, attachmentOf);
      let memoryOff = memory === undefined;
      const knowledgeOff = knowledge === undefined || query.trim() === '';
      // The two lookups are independent: they run side by side, before the first model call.
      const memoryLookup = async (): Promise<SlotItem[]> => {
        if (memory === undefined) return [];
        try {
          const found = await memory.forInjection(query, run.projectId);
          if (!found.enabled) memoryOff = true;
          return found.items;
        } catch (error) {
          logger.warn(
            { err: error, runId: run.runId },
            'memories could not be loaded; the request goes without them',
          );
          return [];
        }
      };
      const knowledgeLookup = async (): Promise<SlotItem[]> => {
        if (knowledge === undefined || knowledgeOff) return [];
        try {
          return await knowledge.passages(
            query,
            { projectId: run.projectId, conversationId: run.conversationId },
            signal,
          );
        } catch (error) {
          logger.warn(
            { err: error, runId: run.runId },
            'knowledge search failed; the request goes without it',
          );
          return [];
        }
      };
      const [memoryItems, knowledgeItems] = await Promise.all([memoryLookup(), knowledgeLookup()]);
      const off: ContextSlot[] = [];
      if (memoryOff) off.push('memory');
      if (knowledgeOff) off.push('knowledge');
      return { injections: { memory: memoryItems, knowledge: knowledgeItems }, off };
    };

    return {
      assemble: async (request, model, signal) => {
        // Memory and knowledge are looked up once per run: its user message does not change.
        injections ??= load(request, signal);
        const loaded = await injections;
        const callIndex = calls++;
        const {
          request: assembled,
          report,
          injectedMemoryIds,
        } = assembleRequest({
          request,
          model: {
            id: model?.id ?? request.model,
            // A model the provider does not list: no window known, so nothing is trimmed.
            contextWindow: model?.contextWindow ?? Number.MAX_SAFE_INTEGER,
            maxOutputTokens: model?.maxOutputTokens,
          },
          policy,
          injections: loaded.injections,
          callIndex,
          attachmentOf,
        });
        const stored: ContextAssemblyReport =
          loaded.off.length === 0 ? report : { ...report, off: loaded.off };
        const fresh = injectedMemoryIds.filter((id) => !touched.has(id));
        for (const id of fresh) touched.add(id);
        pending = pending
          .then(async () => {
            await db
              .insertInto('context_reports')
              .values({
                run_id: run.runId,
                call_index: callIndex,
                report: JSON.stringify(stored),
                created_at: Date.now(),
              })
              .execute();
            if (fresh.length > 0) await memory?.touch(fresh);
          })
          .catch((error: unknown) =>
            logger.warn({ err: error, runId: run.runId }, 'the context report could not be stored'),
          );
        // Spec §4.10: a request over the window is never sent; the run fails saying what did not fit.
        if (report.over_budget) throw budgetExceeded(report);
        return assembled;
      },
      flush: () => pending,
    };
  }

  /** The reports of a run's model calls, in call order. */
  async reportsOf(runId: string): Promise<ContextAssemblyReport[]> {
    const rows = await this.#options.db
      .selectFrom('context_reports')
      .select(['report'])
      .where('run_id', '=', runId)
      .orderBy('call_index', 'asc')
      .execute();
    return rows.map((row) => ContextAssemblyReportSchema.parse(JSON.parse(row.report)));
  }
}
