/** Image formats the agent accepts, detected from the bytes (spec §8). */
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface TextBlock {
  type: 'text';
  text: string;
}

/** An image ready for a model: base64 data whose format was read from its bytes. */
export interface ImageBlock {
  type: 'image';
  mediaType: ImageMediaType;
  /** Base64, no `data:` prefix. */
  data: string;
  /** The path it was read from, when it came from a file. */
  path?: string;
}

/**
 * A file the agent read for the model. UTF-8 text arrives as `text`; anything else as base64
 * `data`, which only models with the `documents` capability accept.
 */
export interface FileBlock {
  type: 'file';
  path: string;
  name: string;
  mediaType: string;
  text?: string;
  data?: string;
}

/** One block of a message's content; a message may hold several (spec §8). */
export type ContentBlock = TextBlock | ImageBlock | FileBlock;

/** What a caller may put in a user turn before the agent checks and reads it. */
export type UserInputBlock =
  | TextBlock
  | { type: 'image'; path: string }
  | { type: 'image'; data: string | Uint8Array; mediaType?: ImageMediaType }
  | { type: 'file'; path: string }
  | { type: 'skill'; name: string; arguments?: string };

/** A user turn: plain text, or blocks of text, images, files and skill invocations. */
export type UserInput = string | readonly UserInputBlock[];
