import type { ImageMediaType } from './content.ts';

/** Reads the image format from its leading bytes; the file name is never trusted (spec §8). */
export function detectImageFormat(bytes: Uint8Array): ImageMediaType | undefined {
  const at = (index: number): number => bytes[index] ?? -1;
  if (
    at(0) === 0x89 &&
    at(1) === 0x50 &&
    at(2) === 0x4e &&
    at(3) === 0x47 &&
    at(4) === 0x0d &&
    at(5) === 0x0a
  ) {
    return 'image/png';
  }
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  if (at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x38) return 'image/gif';
  const ascii = (start: number, text: string): boolean =>
    [...text].every((character, offset) => at(start + offset) === character.charCodeAt(0));
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  return undefined;
}
