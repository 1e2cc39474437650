export { ConversationTree } from './conversation-tree.ts';
export { DEFAULT_MESSAGE_PAGE, MAX_MESSAGE_PAGE, queryConversation } from './conversation-query.ts';
export type { ConversationQueryOptions, ConversationView } from './conversation-query.ts';
export {
  conversationMarkdown,
  CONVERSATION_EXPORT_FORMAT,
  exportConversation,
  type ConversationExport,
} from './conversation-export.ts';
export {
  DEFAULT_MESSAGE_HITS,
  MAX_MESSAGE_HITS,
  MAX_MESSAGE_QUERY,
  searchMessages,
} from './message-search.ts';
