export { conversationEventStream, encodeEvents } from './conversation-stream.ts';
export type { ConversationStreamOptions } from './conversation-stream.ts';
