import { detectImageFormat, MAX_IMAGE_BYTES, type ImageBlock } from '../content/index.ts';

/** What a tool's `images` hold once checked, and a line for each image that was left out. */
export interface CheckedImages {
  images: ImageBlock[];
  notes: string[];
}

/** Base64 characters enough to decode the leading bytes every format check needs. */
const SNIFF_CHARACTERS = 24;

function decodedSize(data: string): number {
  return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
}

/**
 * Checks a tool output's `images`: each must be `{ type: 'image', data: base64 }`; its format is
 * read from its bytes (a wrong `mediaType` is corrected, since providers refuse a mismatch), and
 * an image that is not PNG, JPEG, GIF or WebP, or is over the 20 MB limit (spec §8), is left out
 * with a note for the model. Returns a message when the value is not a list of image blocks.
 */
export function checkOutputImages(value: unknown): CheckedImages | string {
  if (!Array.isArray(value)) return '`images` must be a list of image blocks';
  const checked: CheckedImages = { images: [], notes: [] };
  for (const [index, item] of (value as unknown[]).entries()) {
    const block = item as Partial<Record<keyof ImageBlock, unknown>> | null;
    if (
      typeof block !== 'object' ||
      block === null ||
      block.type !== 'image' ||
      typeof block.data !== 'string'
    )
      return `images[${index}] is not { type: 'image', mediaType, data }`;
    const data = block.data;
    const size = decodedSize(data);
    if (size > MAX_IMAGE_BYTES) {
      checked.notes.push(
        `[image ${index + 1} left out: ${(size / 1024 / 1024).toFixed(1)} MB is over the ${MAX_IMAGE_BYTES / 1024 / 1024} MB limit]`,
      );
      continue;
    }
    const mediaType = detectImageFormat(Buffer.from(data.slice(0, SNIFF_CHARACTERS), 'base64'));
    if (mediaType === undefined) {
      checked.notes.push(`[image ${index + 1} left out: not a PNG, JPEG, GIF or WebP image]`);
      continue;
    }
    checked.images.push({
      type: 'image',
      mediaType,
      data,
      ...(typeof block.path === 'string' ? { path: block.path } : {}),
    });
  }
  return checked;
}
