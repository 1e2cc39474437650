export { summaryText } from './assistant-message.tsx';
export { ConversationView } from './conversation-view.tsx';
export { MessageList } from './message-list.tsx';
export { useConversationUi } from './conversation-ui-store.ts';
