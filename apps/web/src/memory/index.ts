export { ContextReportDialog, ContextReportView, trimText } from './context-report-dialog.tsx';
export { MemorySection } from './memory-section.tsx';
export { MessageMemoryActions, memoryErrorText } from './message-memory-actions.tsx';
export {
  contextReportsKey,
  MEMORY_KEY,
  MEMORY_SETTINGS_KEY,
  syncMemoryOnCards,
  useContextReports,
  useMemories,
  useMemorySettings,
} from './memory-queries.ts';
