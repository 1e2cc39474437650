import type { Message } from '../provider/index.ts';

/**
 * Tokens an image is counted as. chars/4 of its base64 would count a photo as a million tokens;
 * providers bill images at roughly a thousand or two.
 */
export const IMAGE_TOKEN_ESTIMATE = 1_600;

/** The spec's rough estimate (spec §4.2): characters / 4, per message, computed once per message. */
export function estimateMessageTokens(message: Message): number {
  switch (message.role) {
    case 'system':
      return Math.ceil(message.content.length / 4);
    case 'tool':
      return (
        Math.ceil((message.content.length + message.toolName.length) / 4) +
        (message.images?.length ?? 0) * IMAGE_TOKEN_ESTIMATE
      );
    case 'assistant': {
      let characters = message.content.length + (message.reasoning?.length ?? 0);
      for (const call of message.toolCalls) characters += call.toolName.length + call.arguments.length;
      return Math.ceil(characters / 4);
    }
    case 'user': {
      let tokens = 0;
      for (const block of message.content) {
        if (block.type === 'text') tokens += block.text.length / 4;
        else if (block.type === 'image') tokens += IMAGE_TOKEN_ESTIMATE;
        else tokens += (block.text?.length ?? ((block.data?.length ?? 0) * 3) / 4) / 4;
      }
      return Math.ceil(tokens);
    }
  }
}

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
