import { ApiError } from '../errors/index.ts';

/** A position in a list ordered by (time desc, id desc), opaque to clients. */
export interface PageCursor {
  at: number;
  id: string;
}

export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id]), 'utf8').toString('base64url');
}

export function decodeCursor(text: string): PageCursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string') {
      return { at: value[0], id: value[1] };
    }
  } catch {
    // falls through to the error below
  }
  throw new ApiError('INVALID_INPUT', 'The cursor is not one this server handed out.', {
    details: { cursor: text },
  });
}

/** `text` for a LIKE pattern with `\` as the escape character. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
