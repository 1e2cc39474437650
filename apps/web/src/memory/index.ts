export { ContextReportDialog, ContextReportView, trimText } from './context-report-dialog.tsx';
export { MemoryCandidateCards } from './memory-candidate-cards.tsx';
export { MemorySection } from './memory-section.tsx';
export { MessageMemoryActions, memoryErrorText } from './message-memory-actions.tsx';
export {
  contextReportsKey,
  MEMORY_KEY,
  MEMORY_SETTINGS_KEY,
  memoryCandidatesKey,
  syncMemoryCandidates,
  useContextReports,
  useMemories,
  useMemoryCandidates,
  useMemorySettings,
} from './memory-queries.ts';
