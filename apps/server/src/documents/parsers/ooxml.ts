import type { DocumentFormat, ParseLimits } from '@youyou/contracts';
import { ParseFailedError } from '../document-builder.ts';
import { readZip } from '../safe-zip.ts';

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const MAIN_PART: Record<'docx' | 'pptx' | 'xlsx', string> = {
  docx: 'word/document.xml',
  pptx: 'ppt/presentation.xml',
  xlsx: 'xl/workbook.xml',
};
const OTHER_FORMATS: Record<string, DocumentFormat> = {
  'word/document.xml': 'docx',
  'ppt/presentation.xml': 'pptx',
  'xl/workbook.xml': 'xlsx',
};

function utf16Includes(bytes: Uint8Array, text: string): boolean {
  const needle = new Uint8Array(text.length * 2);
  for (let index = 0; index < text.length; index++) needle[index * 2] = text.charCodeAt(index);
  outer: for (let at = 0; at + needle.length <= bytes.length; at++) {
    for (let offset = 0; offset < needle.length; offset++)
      if (bytes[at + offset] !== needle[offset]) continue outer;
    return true;
  }
  return false;
}

/**
 * The parts of an OOXML file, checked: a password-protected Office file (an OLE container with an
 * `EncryptedPackage`) fails `encrypted`, a legacy binary one or another OOXML kind `wrong_type`,
 * a zip without the main part `corrupt`; the expanded size is capped (`readZip`).
 *
 * @example
 * const parts = openOoxml(bytes, 'docx', limits);
 */
export function openOoxml(
  bytes: Uint8Array,
  format: 'docx' | 'pptx' | 'xlsx',
  limits: ParseLimits,
  want?: (name: string) => boolean,
): Map<string, Uint8Array> {
  if (CFB_MAGIC.every((byte, index) => bytes[index] === byte)) {
    if (utf16Includes(bytes.subarray(0, 64 * 1024), 'EncryptedPackage'))
      throw new ParseFailedError('encrypted', 'The document is protected with a password.');
    throw new ParseFailedError(
      'wrong_type',
      `The file is a legacy binary Office document, not ${format}; save it as .${format} and upload it again.`,
    );
  }
  const entries = readZip(bytes, {
    maxExpandedBytes: limits.max_expanded_bytes,
    ...(want === undefined ? {} : { want }),
  });
  if (!entries.has(MAIN_PART[format])) {
    for (const [part, other] of Object.entries(OTHER_FORMATS)) {
      if (entries.has(part))
        throw new ParseFailedError('wrong_type', `The file is a ${other} document, not ${format}.`, {
          detected: other,
        });
    }
    throw new ParseFailedError(
      'corrupt',
      `The file has no ${MAIN_PART[format]}: it is not a readable ${format}.`,
    );
  }
  return entries;
}
