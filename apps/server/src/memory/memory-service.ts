import {
  DEFAULT_MEMORY_SETTINGS,
  MEMORY_CONTENT_MAX,
  MEMORY_EXPORT_FORMAT,
  MEMORY_TYPES,
  type MemoryCandidate,
  type FormField,
  type HitlAnswer,
  type MemoryCandidateDecision,
  type MemoryCreate,
  type MemoryCreated,
  type MemoryExport,
  type MemoryItem,
  type MemoryScope,
  type MemorySettings,
  type MemoryType,
  MemoryCreateSchema,
} from '@youyou/contracts';
import type { WorkbenchDatabase } from '../database/index.ts';
import { ApiError, notFound } from '../errors/index.ts';
import type { ServerLogger } from '../logging/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { MemoryRepository, type MemoryFilter, type NewMemory } from './memory-repository.ts';
import { rankForInjection } from './memory-ranking.ts';

/** The settings keys of memory (registered by `registerMemorySettings`). */
export const MEMORY_SETTING_KEYS = {
  enabled: 'memory.enabled',
  max_items: 'memory.max_items',
  propose_candidates: 'memory.propose_candidates',
  capacity: 'memory.capacity',
} as const;

/** What the lightweight model is asked after a run (decision 0015). */
export const MEMORY_CANDIDATE_PROMPT = `You help a user keep a small long-term memory for their AI assistant. Read the exchange and propose at most three durable facts worth remembering in later conversations: the user's stable preferences, facts about them or their project, decisions with their reasons, procedures they follow. Never propose one-off requests, small talk, secrets (keys, passwords, tokens), or anything already in the known memories.

Answer with JSON only, in exactly this shape:
{"candidates": [{"type": "fact|preference|decision|episode|procedure", "content": "one self-contained sentence", "confidence": 0.0-1.0, "scope": "user|project"}]}
Answer {"candidates": []} when nothing is worth remembering (the usual case).`;

/** Reads the lightweight model's answer; anything malformed gives no candidates. */
export function parseCandidates(
  text: string,
): { type: MemoryType; content: string; confidence: number; scope: MemoryScope }[] {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end < start) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start, end + 1));
  } catch {
    return [];
  }
  const list = (parsed as { candidates?: unknown }).candidates;
  if (!Array.isArray(list)) return [];
  return list.slice(0, 3).flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { type, content, confidence, scope } = item as Record<string, unknown>;
    if (typeof content !== 'string' || content.trim() === '') return [];
    return [
      {
        type: MEMORY_TYPES.includes(type as MemoryType) ? (type as MemoryType) : 'fact',
        content: content.trim().slice(0, MEMORY_CONTENT_MAX),
        confidence:
          typeof confidence === 'number' && Number.isFinite(confidence)
            ? Math.min(1, Math.max(0, confidence))
            : 0.5,
        scope: scope === 'project' ? 'project' : 'user',
      },
    ];
  });
}

/** Shows a candidate's confirmation card (the HITL service's detached card). */
export type CandidateCardRaiser = (
  candidate: MemoryCandidate,
  card: { question: string; fields: FormField[] },
) => Promise<void>;

/**
 * The confirmation card of a candidate (spec §4.13 "经 HITL 卡片确认"): a form card — keep it or
 * not, its text to edit, and for a conversation in a project whose memory it is.
 */
export function candidateCard(candidate: MemoryCandidate): { question: string; fields: FormField[] } {
  const fields: FormField[] = [
    {
      id: 'decision',
      type: 'select',
      label: 'Remember it?',
      required: true,
      options: [
        { value: 'remember', label: 'Remember' },
        { value: 'forget', label: 'Do not remember' },
      ],
      default: 'remember',
    },
    {
      id: 'content',
      type: 'textarea',
      label: 'What to remember',
      required: true,
      maxLength: MEMORY_CONTENT_MAX,
      default: candidate.content,
    },
  ];
  if (candidate.project_id !== null)
    fields.push({
      id: 'scope',
      type: 'select',
      label: 'For',
      required: true,
      options: [
        { value: 'user', label: 'Every conversation' },
        { value: 'project', label: 'This project only' },
      ],
      default: candidate.scope,
    });
  return { question: `Remember this (${candidate.type})? ${candidate.content}`, fields };
}

/** A candidate card's form answer as a decision. */
export function decisionOfAnswer(answer: HitlAnswer): MemoryCandidateDecision {
  if (answer.type !== 'form')
    throw new ApiError('INVALID_ANSWER', 'A memory card is answered with its form.', {
      details: { answer_type: answer.type },
    });
  const { decision, content, scope } = answer.values;
  if (decision === 'forget') return { accept: false };
  return {
    accept: true,
    ...(typeof content === 'string' && content.trim() !== '' ? { content: content.trim() } : {}),
    ...(scope === 'user' || scope === 'project' ? { scope } : {}),
  };
}

export interface MemoryServiceOptions {
  database: WorkbenchDatabase;
  settings: SettingsService;
  logger: ServerLogger;
  /** The lightweight model's completion (model routing), for candidates. */
  complete?: (
    request: { systemPrompt: string; text: string; signal?: AbortSignal },
    context: { conversationId: string },
  ) => Promise<string>;
  now?: () => number;
  /** Raises a candidate's confirmation card (the HITL service); absent: candidates are only stored. */
  raiseCard?: CandidateCardRaiser;
}

/**
 * Memory (spec §4.13): off by default; written only with the user's consent — the memory page,
 * `/remember`, "remember this" on a message, or a candidate the user accepts; injected through
 * the context assembler's memory slot. The agent core's silent extraction at session close is not
 * used (decision 0015): the workbench never registers its MemoryStorage with the agents.
 *
 * @example
 * if ((await memory.settings()).enabled) await memory.create({ scope: 'user', content: 'Prefers metric units' });
 */
export class MemoryService {
  readonly #options: MemoryServiceOptions;
  readonly repository: MemoryRepository;

  constructor(options: MemoryServiceOptions) {
    this.#options = options;
    this.repository = new MemoryRepository(
      options.database.db,
      options.now === undefined ? {} : { now: options.now },
    );
  }

  async settings(context: { projectId?: string | null } = {}): Promise<MemorySettings> {
    const scope =
      context.projectId === undefined || context.projectId === null ? {} : { projectId: context.projectId };
    const snapshot = await this.#options.settings.snapshot(scope);
    const value = <T>(key: string, fallback: T): T => (snapshot.get(key)?.value as T | undefined) ?? fallback;
    return {
      enabled: value(MEMORY_SETTING_KEYS.enabled, DEFAULT_MEMORY_SETTINGS.enabled),
      max_items: value(MEMORY_SETTING_KEYS.max_items, DEFAULT_MEMORY_SETTINGS.max_items),
      propose_candidates: value(
        MEMORY_SETTING_KEYS.propose_candidates,
        DEFAULT_MEMORY_SETTINGS.propose_candidates,
      ),
      capacity: value(MEMORY_SETTING_KEYS.capacity, DEFAULT_MEMORY_SETTINGS.capacity),
    };
  }

  /** Writes the user layer of the memory settings. */
  async updateSettings(patch: {
    [Key in keyof MemorySettings]?: MemorySettings[Key] | undefined;
  }): Promise<MemorySettings> {
    const values: Record<string, unknown> = {};
    for (const [field, key] of Object.entries(MEMORY_SETTING_KEYS)) {
      const value = patch[field as keyof MemorySettings];
      if (value !== undefined) values[key] = value;
    }
    if (Object.keys(values).length > 0) await this.#options.settings.write({ layer: 'user' }, values);
    return this.settings();
  }

  async #requireEnabled(projectId: string | null): Promise<void> {
    if (!(await this.settings({ projectId })).enabled)
      throw new ApiError('MEMORY_DISABLED', 'Memory is switched off: turn it on in Settings → Memory first.');
  }

  async #requireProject(projectId: string): Promise<void> {
    const row = await this.#options.database.db
      .selectFrom('projects')
      .select('id')
      .where('id', '=', projectId)
      .executeTakeFirst();
    if (row === undefined) throw notFound('project', projectId);
  }

  /**
   * Writes a memory and, in the same transaction, evicts what its scope holds beyond
   * `memory.capacity`; the evictions are logged and returned, so nothing disappears unreported.
   */
  async #store(
    memory: NewMemory,
    alongside?: (repository: MemoryRepository, item: MemoryItem) => Promise<void>,
  ): Promise<MemoryCreated> {
    const { capacity } = await this.settings({ projectId: memory.project_id });
    const created = await this.#options.database.db.transaction().execute(async (transaction) => {
      const repository = new MemoryRepository(
        transaction,
        this.#options.now === undefined ? {} : { now: this.#options.now },
      );
      const item = await repository.create(memory);
      await alongside?.(repository, item);
      return { ...item, evicted: await repository.evict(item.scope, item.project_id, capacity, item.id) };
    });
    if (created.evicted.length > 0)
      this.#options.logger.info(
        { memoryId: created.id, capacity, evicted: created.evicted.map((item) => item.id) },
        'memories evicted to stay within memory.capacity',
      );
    return created;
  }

  /** A memory the user wrote (page, `/remember`, "remember this"); refused while memory is off. */
  async create(input: MemoryCreate): Promise<MemoryCreated> {
    const result = MemoryCreateSchema.safeParse(input);
    if (!result.success) {
      const issues = result.error.issues.map((issue) => ({
        path: issue.path.map(String).join('.'),
        message: issue.message,
      }));
      throw new ApiError(
        'INVALID_INPUT',
        `The memory is not valid: ${issues[0]?.path ?? ''}: ${issues[0]?.message ?? ''}`,
        {
          details: { issues },
        },
      );
    }
    const parsed = result.data;
    const projectId = parsed.scope === 'project' ? (parsed.project_id ?? null) : null;
    if (projectId !== null) await this.#requireProject(projectId);
    await this.#requireEnabled(projectId);
    return this.#store({
      scope: parsed.scope,
      project_id: projectId,
      type: parsed.type,
      content: parsed.content,
      source: parsed.source,
      source_run_id: parsed.source_run_id ?? null,
      confidence: parsed.confidence,
      tags: parsed.tags,
      expires_at: parsed.expires_at ?? null,
    });
  }

  /**
   * A memory a setup bundle brings (the user's own data moving with them): stored whether memory
   * is on or off here — switching it on is the user's choice — and within `memory.capacity`.
   */
  importMemory(memory: NewMemory): Promise<MemoryCreated> {
    return this.#store(memory);
  }

  list(filter: MemoryFilter): Promise<{ memories: MemoryItem[]; total: number }> {
    return this.repository.list(filter);
  }

  async export(): Promise<MemoryExport> {
    return {
      format: MEMORY_EXPORT_FORMAT,
      version: 1,
      exported_at: new Date((this.#options.now ?? Date.now)()).toISOString(),
      memories: await this.repository.all(),
    };
  }

  /**
   * The memory slot's items for a request: none while memory is off; else the conversation's
   * visible memories ranked by relevance to `query` and recency, at most `max_items`.
   */
  async forInjection(
    query: string,
    projectId: string | null,
  ): Promise<{ enabled: boolean; items: { id: string; text: string }[] }> {
    const settings = await this.settings({ projectId });
    if (!settings.enabled) return { enabled: false, items: [] };
    const now = (this.#options.now ?? Date.now)();
    const ranked = rankForInjection(await this.repository.visible(projectId), query, now).slice(
      0,
      settings.max_items,
    );
    return {
      enabled: true,
      items: ranked.map((memory) => ({
        id: memory.id,
        text: `(${memory.type}${memory.scope === 'project' ? ', this project' : ''}) ${memory.content}`,
      })),
    };
  }

  /**
   * After a completed run: asks the lightweight model for candidates and, when it proposes any,
   * stores them pending and raises a confirmation card for each. Nothing happens while
   * memory or proposals are off. Never throws: a failed proposal is logged.
   */
  async proposeAfterRun(run: {
    runId: string;
    conversationId: string;
    projectId: string | null;
    userText: string;
    answer: string;
  }): Promise<MemoryCandidate[]> {
    const complete = this.#options.complete;
    if (complete === undefined) return [];
    try {
      const settings = await this.settings({ projectId: run.projectId });
      if (!settings.enabled || !settings.propose_candidates) return [];
      if (run.userText.trim() === '' && run.answer.trim() === '') return [];
      const known = (await this.repository.visible(run.projectId, 50)).map((memory) => `- ${memory.content}`);
      const text = [
        `Known memories:\n${known.length === 0 ? '(none)' : known.join('\n')}`,
        `User:\n${run.userText.slice(0, 8_000)}`,
        `Assistant:\n${run.answer.slice(0, 8_000)}`,
      ].join('\n\n');
      const answer = await complete(
        { systemPrompt: MEMORY_CANDIDATE_PROMPT, text, signal: AbortSignal.timeout(60_000) },
        { conversationId: run.conversationId },
      );
      const existing = new Set(known.map((line) => line.slice(2).trim().toLowerCase()));
      const proposed = parseCandidates(answer).filter(
        (candidate) => !existing.has(candidate.content.toLowerCase()),
      );
      if (proposed.length === 0) return [];
      const candidates = await this.repository.addCandidates(
        proposed.map((candidate) => {
          const scope: MemoryScope =
            candidate.scope === 'project' && run.projectId !== null ? 'project' : 'user';
          return {
            conversation_id: run.conversationId,
            run_id: run.runId,
            scope,
            project_id: scope === 'project' ? run.projectId : null,
            type: candidate.type,
            content: candidate.content,
            confidence: candidate.confidence,
          };
        }),
      );
      for (const candidate of candidates)
        await this.#options.raiseCard?.(candidate, candidateCard(candidate));
      return candidates;
    } catch (error) {
      this.#options.logger.warn(
        { err: error, runId: run.runId },
        'memory candidates could not be proposed; the run is unaffected',
      );
      return [];
    }
  }

  /**
   * Accepts (stores, optionally edited) or rejects a pending candidate — the answer to its card,
   * whose `hitl.resolved` tells every tab. CONFLICT when it was decided already.
   */
  async decide(candidateId: string, decision: MemoryCandidateDecision): Promise<MemoryCandidate> {
    const candidate = await this.repository.candidate(candidateId);
    if (candidate.status !== 'pending')
      throw new ApiError('CONFLICT', `The memory candidate was ${candidate.status} already.`, {
        details: { candidate_id: candidateId, status: candidate.status },
      });
    const scope = decision.scope ?? candidate.scope;
    const projectId = scope === 'project' ? candidate.project_id : null;
    if (scope === 'project' && projectId === null)
      throw new ApiError(
        'INVALID_INPUT',
        'This conversation has no project: the memory can only be a user memory.',
      );
    if (decision.accept) {
      await this.#requireEnabled(projectId);
      await this.#store(
        {
          scope,
          project_id: projectId,
          type: candidate.type,
          content: decision.content ?? candidate.content,
          source: 'run',
          source_run_id: candidate.run_id,
          confidence: candidate.confidence,
          tags: [],
          expires_at: null,
        },
        async (repository, memory) => {
          // Another tab decided first: throwing rolls the new memory back.
          if (!(await repository.resolveCandidate(candidateId, 'accepted', memory.id)))
            throw new ApiError('CONFLICT', 'The memory candidate was decided already.', {
              details: { candidate_id: candidateId },
            });
        },
      );
    } else if (!(await this.repository.resolveCandidate(candidateId, 'rejected', null))) {
      throw new ApiError('CONFLICT', 'The memory candidate was decided already.', {
        details: { candidate_id: candidateId },
      });
    }
    return this.repository.candidate(candidateId);
  }
}
