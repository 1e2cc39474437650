import type { DocumentFormat } from '@youyou/contracts';
import { ParseFailedError } from '../document-builder.ts';

/** A kind of file recognised by its first bytes. */
export interface SniffedType {
  /** What a message calls it: "a PNG image". */
  label: string;
  media_type: string;
  /** The formats whose parser reads this kind (a zip may be any OOXML file; OOXML parsing tells which). */
  formats: readonly DocumentFormat[];
}

const OOXML: readonly DocumentFormat[] = ['docx', 'pptx', 'xlsx'];

interface Signature {
  offset: number;
  bytes: readonly number[];
  type: SniffedType;
}

const ascii = (text: string): number[] => [...text].map((char) => char.charCodeAt(0));

/**
 * Magic numbers of files people name as documents by mistake. Two-byte signatures (MZ, BM) are
 * left out: ordinary text can start with them.
 */
const SIGNATURES: readonly Signature[] = [
  {
    offset: 0,
    bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    type: { label: 'a PNG image', media_type: 'image/png', formats: [] },
  },
  {
    offset: 0,
    bytes: [0xff, 0xd8, 0xff],
    type: { label: 'a JPEG image', media_type: 'image/jpeg', formats: [] },
  },
  { offset: 0, bytes: ascii('GIF87a'), type: { label: 'a GIF image', media_type: 'image/gif', formats: [] } },
  { offset: 0, bytes: ascii('GIF89a'), type: { label: 'a GIF image', media_type: 'image/gif', formats: [] } },
  { offset: 8, bytes: ascii('WEBP'), type: { label: 'a WebP image', media_type: 'image/webp', formats: [] } },
  {
    offset: 0,
    bytes: [0x49, 0x49, 0x2a, 0x00],
    type: { label: 'a TIFF image', media_type: 'image/tiff', formats: [] },
  },
  {
    offset: 0,
    bytes: [0x4d, 0x4d, 0x00, 0x2a],
    type: { label: 'a TIFF image', media_type: 'image/tiff', formats: [] },
  },
  {
    offset: 0,
    bytes: ascii('%PDF-'),
    type: { label: 'a PDF', media_type: 'application/pdf', formats: ['pdf'] },
  },
  {
    offset: 0,
    bytes: [0x50, 0x4b, 0x03, 0x04],
    type: { label: 'a ZIP archive', media_type: 'application/zip', formats: OOXML },
  },
  {
    offset: 0,
    bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    type: { label: 'a legacy Office (OLE) file', media_type: 'application/x-ole-storage', formats: OOXML },
  },
  {
    offset: 0,
    bytes: [0x1f, 0x8b],
    type: { label: 'a gzip archive', media_type: 'application/gzip', formats: [] },
  },
  {
    offset: 0,
    bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c],
    type: { label: 'a 7-Zip archive', media_type: 'application/x-7z-compressed', formats: [] },
  },
  {
    offset: 0,
    bytes: ascii('Rar!'),
    type: { label: 'a RAR archive', media_type: 'application/vnd.rar', formats: [] },
  },
  {
    offset: 0,
    bytes: [0x7f, 0x45, 0x4c, 0x46],
    type: { label: 'an ELF executable', media_type: 'application/x-elf', formats: [] },
  },
  {
    offset: 0,
    bytes: ascii('SQLite format 3\0'),
    type: { label: 'an SQLite database', media_type: 'application/vnd.sqlite3', formats: [] },
  },
  {
    offset: 4,
    bytes: ascii('ftyp'),
    type: { label: 'an MP4/QuickTime video', media_type: 'video/mp4', formats: [] },
  },
  { offset: 0, bytes: ascii('ID3'), type: { label: 'an MP3 file', media_type: 'audio/mpeg', formats: [] } },
];

/**
 * The kind of file its first bytes say it is, when they match a known signature.
 *
 * @example
 * sniffType(pngBytes)?.label; // 'a PNG image'
 */
export function sniffType(bytes: Uint8Array): SniffedType | undefined {
  const riff = ascii('RIFF').every((byte, index) => bytes[index] === byte);
  for (const signature of SIGNATURES) {
    // WebP is "RIFF....WEBP": the tag at 8 alone is not enough.
    if (signature.offset === 8 && !riff) continue;
    if (signature.bytes.every((byte, index) => bytes[signature.offset + index] === byte))
      return signature.type;
  }
  return undefined;
}

/**
 * Fails before a parser starts when the bytes cannot be a `format` file: none at all is `empty`;
 * a known signature of another kind (a PNG named `.docx`) is `wrong_type`, naming the real type.
 *
 * @example
 * checkBytes(new Uint8Array(), 'pdf', 'a.pdf'); // throws ParseFailedError('empty', …)
 */
export function checkBytes(bytes: Uint8Array, format: DocumentFormat, name: string): void {
  if (bytes.byteLength === 0) throw new ParseFailedError('empty', `${name} is empty (0 bytes).`);
  const sniffed = sniffType(bytes);
  if (sniffed === undefined || sniffed.formats.includes(format)) return;
  throw new ParseFailedError(
    'wrong_type',
    `${name} is named as a ${format} file, but its bytes are ${sniffed.label} (${sniffed.media_type}).`,
    { detected: sniffed.media_type },
  );
}
