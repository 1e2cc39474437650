import { z } from 'zod';

/**
 * Memory (spec agent-system-skeleton-design-r4 §4.13): what the workbench remembers across
 * conversations, scoped to the user or to one project. Off by default; written only with the
 * user's consent — "remember this", `/remember`, the memory page, or an accepted candidate card.
 */

export const MEMORY_TYPES = ['fact', 'preference', 'decision', 'episode', 'procedure'] as const;
export const MemoryTypeSchema = z.enum(MEMORY_TYPES);
export type MemoryType = z.infer<typeof MemoryTypeSchema>;

/** `user`: every conversation; `project`: only that project's conversations. */
export const MEMORY_SCOPES = ['user', 'project'] as const;
export const MemoryScopeSchema = z.enum(MEMORY_SCOPES);
export type MemoryScope = z.infer<typeof MemoryScopeSchema>;

/** `manual`: the user wrote it (page, `/remember`, "remember this"); `run`: an accepted candidate. */
export const MEMORY_SOURCES = ['run', 'manual'] as const;
export const MemorySourceSchema = z.enum(MEMORY_SOURCES);
export type MemorySource = z.infer<typeof MemorySourceSchema>;

export const MEMORY_CONTENT_MAX = 4_000;

/** A memory as stored and served (§4.13 model). Times are ISO 8601. */
export const MemoryItemSchema = z.object({
  id: z.string(),
  scope: MemoryScopeSchema,
  /** Set exactly when `scope` is `project`. */
  project_id: z.string().nullable(),
  type: MemoryTypeSchema,
  content: z.string(),
  source: MemorySourceSchema,
  /** The run (message) it came from, when there is one. */
  source_run_id: z.string().nullable(),
  /** 0–1; manual memories are 1. */
  confidence: z.number().min(0).max(1),
  tags: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  /** When it was last injected into a model request. */
  last_accessed_at: z.string().nullable(),
  /** After this it is neither injected nor listed as live (the page still shows it as expired). */
  expires_at: z.string().nullable(),
});
export type MemoryItem = z.infer<typeof MemoryItemSchema>;

/**
 * `POST /api/memories`: the memory written and the memories evicted to keep its scope (the user's,
 * or one project's) within `memory.capacity` — least recently used first (spec §4.13).
 */
export const MemoryCreatedSchema = MemoryItemSchema.extend({
  evicted: z.array(MemoryItemSchema),
});
export type MemoryCreated = z.infer<typeof MemoryCreatedSchema>;

const contentSchema = z.string().trim().min(1).max(MEMORY_CONTENT_MAX);
const tagsSchema = z.array(z.string().trim().min(1).max(40)).max(20);
const expirySchema = z.iso.datetime({ offset: true }).nullable();

/**
 * `POST /api/memories`. A `project` memory names its project; a `user` memory does not.
 *
 * @example
 * MemoryCreateSchema.parse({ scope: 'user', content: 'Answers in British English' });
 */
export const MemoryCreateSchema = z
  .object({
    scope: MemoryScopeSchema,
    project_id: z.string().min(1).nullable().optional(),
    type: MemoryTypeSchema.default('fact'),
    content: contentSchema,
    source: MemorySourceSchema.default('manual'),
    source_run_id: z.string().min(1).nullable().optional(),
    confidence: z.number().min(0).max(1).default(1),
    tags: tagsSchema.default([]),
    expires_at: expirySchema.optional(),
  })
  .refine((value) => (value.scope === 'project') === (typeof value.project_id === 'string'), {
    message: 'a project memory needs project_id; a user memory has none',
    path: ['project_id'],
  });
export type MemoryCreate = z.input<typeof MemoryCreateSchema>;

/** `PATCH /api/memories/:id`: any of the editable fields. */
export const MemoryUpdateSchema = z.object({
  content: contentSchema.optional(),
  type: MemoryTypeSchema.optional(),
  confidence: z.number().min(0).max(1).optional(),
  tags: tagsSchema.optional(),
  expires_at: expirySchema.optional(),
});
export type MemoryUpdate = z.input<typeof MemoryUpdateSchema>;

/** `GET /api/memories?scope=&project_id=&q=&limit=`. */
export const MemoryListSchema = z.object({
  memories: z.array(MemoryItemSchema),
  total: z.number().int().min(0),
});
export type MemoryList = z.infer<typeof MemoryListSchema>;

/** The file `GET /api/memories/export` downloads; the same shape imports elsewhere. */
export const MEMORY_EXPORT_FORMAT = 'youyou.memory';
export const MemoryExportSchema = z.object({
  format: z.literal(MEMORY_EXPORT_FORMAT),
  version: z.literal(1),
  exported_at: z.string(),
  memories: z.array(MemoryItemSchema),
});
export type MemoryExport = z.infer<typeof MemoryExportSchema>;

/** `POST /api/memories/clear`: everything, one scope, or one project. */
export const MemoryClearRequestSchema = z.object({
  scope: MemoryScopeSchema.optional(),
  project_id: z.string().min(1).optional(),
});
export type MemoryClearRequest = z.infer<typeof MemoryClearRequestSchema>;

export const MemoryClearResultSchema = z.object({ deleted: z.number().int().min(0) });
export type MemoryClearResult = z.infer<typeof MemoryClearResultSchema>;

/** The highest `memory.capacity` a user may set. */
export const MEMORY_CAPACITY_MAX = 10_000;

/** `GET|PUT /api/memory/settings`: the switch (off by default) and the injection cap. */
export const MemorySettingsSchema = z.object({
  enabled: z.boolean(),
  /** Memories injected per model request at most (within the memory slot's share). */
  max_items: z.number().int().min(1).max(200),
  /** Propose candidates after a run with the lightweight model (only when enabled). */
  propose_candidates: z.boolean(),
  /** The most memories one scope keeps (the user's, or one project's); the least recently used go. */
  capacity: z.number().int().min(1).max(MEMORY_CAPACITY_MAX),
});
export type MemorySettings = z.infer<typeof MemorySettingsSchema>;
export const DEFAULT_MEMORY_SETTINGS: MemorySettings = {
  enabled: false,
  max_items: 20,
  propose_candidates: true,
  capacity: 500,
};

/** How a candidate ended. */
export const MEMORY_CANDIDATE_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export const MemoryCandidateStatusSchema = z.enum(MEMORY_CANDIDATE_STATUSES);
export type MemoryCandidateStatus = z.infer<typeof MemoryCandidateStatusSchema>;

/** A memory the lightweight model proposed after a run, waiting for the user's confirm card. */
export const MemoryCandidateSchema = z.object({
  id: z.string(),
  conversation_id: z.string(),
  run_id: z.string(),
  scope: MemoryScopeSchema,
  project_id: z.string().nullable(),
  type: MemoryTypeSchema,
  content: z.string(),
  confidence: z.number().min(0).max(1),
  status: MemoryCandidateStatusSchema,
  /** The memory an accepted candidate became. */
  memory_id: z.string().nullable(),
  created_at: z.string(),
  resolved_at: z.string().nullable(),
});
export type MemoryCandidate = z.infer<typeof MemoryCandidateSchema>;

/** What the answer to a candidate's card decides: accept (optionally edited) or reject. */
export const MemoryCandidateDecisionSchema = z.object({
  accept: z.boolean(),
  content: contentSchema.optional(),
  scope: MemoryScopeSchema.optional(),
});
export type MemoryCandidateDecision = z.infer<typeof MemoryCandidateDecisionSchema>;

/**
 * `memory.proposed` and `memory.resolved` are no longer emitted — a candidate's confirmation is a
 * HITL card (`hitl.request` / `hitl.resolved` with `card.subject`) — but older event logs hold
 * them, so they stay readable.
 *
 * `memory.proposed`: candidates for a finished run's message.
 */
export const memoryProposedPayloadSchema = z.object({
  message_id: z.string(),
  candidates: z.array(MemoryCandidateSchema),
});
/** `memory.resolved`: a candidate was accepted or rejected. */
export const memoryResolvedPayloadSchema = z.object({
  message_id: z.string(),
  candidate_id: z.string(),
  status: z.enum(['accepted', 'rejected']),
  memory_id: z.string().nullable(),
});

/**
 * The memory event types and their payloads, spread into the contract's event registry.
 *
 * @example
 * MEMORY_EVENT_PAYLOAD_SCHEMAS['memory.proposed'].parse(event.payload);
 */
export const MEMORY_EVENT_PAYLOAD_SCHEMAS = {
  'memory.proposed': memoryProposedPayloadSchema,
  'memory.resolved': memoryResolvedPayloadSchema,
} as const;
