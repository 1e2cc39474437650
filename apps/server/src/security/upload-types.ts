import { detectImageFormat } from '@youyou/agent';
import { ApiError } from '../errors/index.ts';

const DOCUMENT_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/pdf',
  // Rich Text Format: read by a parser an extension ships (the example's); no browser runs it.
  'application/rtf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
]);

const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * Text types a browser would run: refused. HTML is accepted as a document (its parser keeps
 * scripts and styles out of the text): the API serves every upload as an attachment, under a
 * `sandbox` CSP and `nosniff`, so a browser never renders one as our page.
 */
const TEXT_EXCEPTIONS: ReadonlySet<string> = new Set(['text/javascript', 'text/xml']);

/**
 * The media type an upload is stored with: images must be what their bytes say (PNG, JPEG, GIF,
 * WebP); text (HTML included), JSON, PDF and Office documents are accepted; anything else (SVG,
 * scripts, executables, archives) is UNSUPPORTED_MEDIA_TYPE.
 *
 * @example
 * checkUploadType('image/png', bytes); // 'image/png'
 */
export function checkUploadType(declared: string, bytes: Uint8Array): string {
  const type = declared.split(';')[0]?.trim().toLowerCase() ?? '';
  const detected = detectImageFormat(bytes);
  if (IMAGE_TYPES.has(type) || detected !== undefined) {
    if (detected === undefined || (IMAGE_TYPES.has(type) && detected !== type)) {
      throw new ApiError(
        'UNSUPPORTED_MEDIA_TYPE',
        `The file says ${type} but its bytes are ${detected ?? 'not an image'}.`,
        {
          details: { media_type: type, detected: detected ?? null },
        },
      );
    }
    return detected;
  }
  if (type.startsWith('text/') && !TEXT_EXCEPTIONS.has(type)) return type;
  if (DOCUMENT_TYPES.has(type)) return type;
  if (type === '' || type === 'application/octet-stream') {
    // No declared type: plain UTF-8 text is accepted as text/plain.
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      return 'text/plain';
    } catch {
      // falls through
    }
  }
  throw new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Uploads of type '${type || 'unknown'}' are not accepted: images (PNG, JPEG, GIF, WebP), text, JSON, PDF and Office documents are.`,
    { details: { media_type: type } },
  );
}
