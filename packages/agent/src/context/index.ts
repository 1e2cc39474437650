export { ContextManager } from './context-manager.ts';
export { Compactor } from './compactor.ts';
export type { CompactRequest, CompactionResult } from './compactor.ts';
export { applyCompaction, planCompaction, SUMMARY_HEADER, TRUNCATION_NOTICE } from './compaction-plan.ts';
export type { CompactionPlan } from './compaction-plan.ts';
export { DEFAULT_COMPACT_PROMPT } from './compaction-prompt.ts';
export { estimateMessageTokens, estimateTextTokens, IMAGE_TOKEN_ESTIMATE } from './token-estimate.ts';
export { renderTranscript } from './transcript.ts';
