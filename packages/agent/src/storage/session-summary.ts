import type { SessionRecord } from '../session/index.ts';
import type { SessionSummary } from '../session/index.ts';

export interface SummaryAccumulator {
  add(record: SessionRecord): void;
  summary(): SessionSummary;
}

/** Folds records into a `SessionSummary` one at a time, so storages never rescan a session to list it. */
export function summarizeRecords(sessionId: string): SummaryAccumulator {
  let title = '';
  let createdAt = 0;
  let updatedAt = 0;
  let messageCount = 0;
  return {
    add(record) {
      if (createdAt === 0) createdAt = record.timestamp;
      updatedAt = Math.max(updatedAt, record.timestamp);
      if (record.type === 'user_message' || record.type === 'assistant_message') messageCount++;
      if (record.type === 'metadata' && record.kind === 'title') title = record.title;
    },
    summary: () => ({ sessionId, title, createdAt, updatedAt, messageCount }),
  };
}
