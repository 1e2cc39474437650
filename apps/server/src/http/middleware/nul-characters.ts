import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../errors/index.ts';
import type { HttpEnv } from '../../services/index.ts';

const NUL = '\u0000';

/** Where in a JSON value the first NUL sits (`text`, `skills.0.name`, a key's path), if any. */
function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path : undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findNul(value[index], path === '' ? String(index) : `${path}.${index}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const itemPath = path === '' ? key : `${path}.${key}`;
      if (key.includes(NUL)) return itemPath;
      const found = findNul(item, itemPath);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function nulError(where: string): ApiError {
  return new ApiError(
    'INVALID_INPUT',
    `The request is not valid: ${where} contains a NUL character (U+0000), which no text may hold.`,
    { details: { reason: 'nul_character', where } },
  );
}

/**
 * Throws the same INVALID_INPUT as the middleware when a form field holds a NUL (multipart bodies
 * are read by their route, so their fields are checked there).
 *
 * @example
 * refuseNul(form.conversation_id, "form field 'conversation_id'");
 */
export function refuseNul(value: string | undefined, where: string): void {
  if (value?.includes(NUL) === true) throw nulError(where);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // A malformed escape is the router's to refuse; a NUL can only come from `%00`.
    return text.replaceAll(/%00/gi, NUL);
  }
}

/**
 * Refuses a NUL character (U+0000) anywhere in the path, the query or a JSON body with one
 * INVALID_INPUT, before any route runs. PostgreSQL cannot store NUL in text while SQLite can, so
 * without this the same request was a 500 on one tier and accepted on the other; no name, title,
 * message or id has a use for it.
 *
 * @example
 * app.use('/api/*', refuseNulCharacters());
 */
export function refuseNulCharacters(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const url = new URL(c.req.url);
    if (decoded(url.pathname).includes(NUL)) throw nulError('the path');
    for (const [name, value] of url.searchParams) {
      if (name.includes(NUL) || value.includes(NUL))
        throw nulError(`query parameter '${name.replaceAll(NUL, '\\0')}'`);
    }
    const type = c.req.header('content-type') ?? '';
    if (/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
      const text = await c.req.text();
      if (text.includes(NUL)) throw nulError('the body');
      if (text.includes('\\u0000')) {
        let body: unknown;
        try {
          body = JSON.parse(text) as unknown;
        } catch {
          body = undefined; // Malformed JSON: the route's validation answers it.
        }
        const where = findNul(body, '');
        if (where !== undefined) throw nulError(where === '' ? 'the body' : `body field '${where}'`);
      }
    }
    await next();
  };
}
