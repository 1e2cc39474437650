export { ConversationWriter } from './conversation-writer.ts';
export type { ApplyInTransaction, CommitBatch, ConversationWriterOptions } from './conversation-writer.ts';
export { EventHub } from './event-hub.ts';
export { EventLog } from './event-log.ts';
export type { EventLogOptions, InsertEvents } from './event-log.ts';
export { EVENTS_CHANNEL, eventOfRow, lastSeqOf, readEvents } from './event-store.ts';
export type { EventsNotification, ReadEventsOptions } from './event-store.ts';
// The event shapes are the contract's (@youyou/contracts); re-exported for the server's modules.
export { EVENT_VERSION, INTERNAL_EVENT_TYPES } from '@youyou/contracts';
export type {
  AttachmentReference,
  EventError,
  EventPayloads,
  MessageInput,
  NewEvent,
  RunDescription,
  RunUsage,
  WorkbenchEvent,
  WorkbenchEventType,
} from '@youyou/contracts';
