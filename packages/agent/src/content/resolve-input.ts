import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../errors/index.ts';
import { parseSkillInvocation, unescapeSlash } from '../skills/index.ts';
import type {
  ContentBlock,
  FileBlock,
  ImageBlock,
  ImageMediaType,
  UserInput,
  UserInputBlock,
} from './content.ts';
import { detectImageFormat } from './image-format.ts';
import { MAX_FILE_BYTES, MAX_IMAGE_BYTES } from './limits.ts';
import { resolveAllowedPath } from './path-guard.ts';

export interface ResolveInputOptions {
  cwd: string;
  /** Directories files and images may come from: the workspace and the YouYou home. */
  allowedRoots: readonly string[];
}

/** A skill named in the input, with any text given to it. */
export interface RequestedSkill {
  name: string;
  arguments?: string;
}

export interface ResolvedInput {
  content: ContentBlock[];
  skills: RequestedSkill[];
  /** The user's text across text blocks, for hooks and titles. */
  text: string;
}

/**
 * Turns what a caller sent into content blocks a model can take: reads files and images (after the
 * path, size and format checks of spec §8) and pulls out `/skill` invocations.
 */
export async function resolveInput(input: UserInput, options: ResolveInputOptions): Promise<ResolvedInput> {
  const blocks: readonly UserInputBlock[] =
    typeof input === 'string' ? [{ type: 'text', text: input }] : input;
  if (!Array.isArray(blocks)) {
    throw new AgentError('INVALID_INPUT', 'Input must be a string or an array of content blocks.');
  }
  const content: ContentBlock[] = [];
  const skills: RequestedSkill[] = [];
  const texts: string[] = [];
  for (const [index, block] of blocks.entries()) {
    switch (block?.type) {
      case 'text': {
        if (typeof block.text !== 'string') throw invalidBlock(index, 'a text block needs a string `text`');
        let text = block.text;
        // Only the start of the input can invoke a skill, so only there does `//` escape a slash.
        const invocation = index === 0 ? parseSkillInvocation(text) : undefined;
        if (invocation !== undefined) {
          skills.push({ name: invocation.name });
          text = invocation.rest;
        } else if (index === 0) {
          text = unescapeSlash(text);
        }
        // Whitespace alone says nothing; sending it would cost a model call on an empty message.
        if (text.trim().length > 0) {
          content.push({ type: 'text', text });
          texts.push(text);
        }
        break;
      }
      case 'skill':
        if (typeof block.name !== 'string' || block.name === '')
          throw invalidBlock(index, 'a skill block needs a `name`');
        skills.push(
          block.arguments === undefined
            ? { name: block.name }
            : { name: block.name, arguments: block.arguments },
        );
        break;
      case 'image':
        content.push(await resolveImage(block, index, options));
        break;
      case 'file':
        if (typeof block.path !== 'string') throw invalidBlock(index, 'a file block needs a `path`');
        content.push(await resolveFile(block.path, options));
        break;
      default:
        throw invalidBlock(
          index,
          `unknown block type '${String((block as { type?: unknown } | null)?.type)}'`,
        );
    }
  }
  if (content.length === 0 && skills.length === 0) {
    throw new AgentError('INVALID_INPUT', 'The input is empty: send text, an image, a file or a /skill.');
  }
  return { content, skills, text: texts.join('\n') };
}

function invalidBlock(index: number, reason: string): AgentError {
  return new AgentError('INVALID_INPUT', `Input block ${index} is invalid: ${reason}.`, {
    details: { index },
  });
}

async function resolveImage(
  block: Extract<UserInputBlock, { type: 'image' }>,
  index: number,
  options: ResolveInputOptions,
): Promise<ImageBlock> {
  if ('path' in block) {
    const real = await resolveAllowedPath(block.path, options.cwd, options.allowedRoots);
    const bytes = await readLimited(real, block.path, MAX_IMAGE_BYTES, 'image');
    return {
      type: 'image',
      mediaType: imageFormatOf(bytes, block.path),
      data: bytes.toString('base64'),
      path: real,
    };
  }
  let bytes: Buffer;
  if (block.data instanceof Uint8Array) {
    bytes = Buffer.from(block.data.buffer, block.data.byteOffset, block.data.byteLength);
  } else if (typeof block.data === 'string') {
    const base64 = block.data.replace(/^data:[^;,]*;base64,/, '');
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(base64))
      throw invalidBlock(index, 'image data is not valid base64');
    if ((base64.length * 3) / 4 > MAX_IMAGE_BYTES + 4)
      throw tooLarge(`image block ${index}`, MAX_IMAGE_BYTES);
    bytes = Buffer.from(base64, 'base64');
  } else {
    throw invalidBlock(index, 'an image block needs `path` or `data`');
  }
  if (bytes.length > MAX_IMAGE_BYTES) throw tooLarge(`image block ${index}`, MAX_IMAGE_BYTES);
  const mediaType = imageFormatOf(bytes, `image block ${index}`);
  if (block.mediaType !== undefined && block.mediaType !== mediaType) {
    throw invalidBlock(index, `declared ${block.mediaType} but the bytes are ${mediaType}`);
  }
  return { type: 'image', mediaType, data: bytes.toString('base64') };
}

function imageFormatOf(bytes: Uint8Array, label: string): ImageMediaType {
  const format = detectImageFormat(bytes);
  if (format === undefined) {
    throw new AgentError('INVALID_INPUT', `${label} is not a PNG, JPEG, GIF or WebP image.`, {
      details: { path: label },
    });
  }
  return format;
}

async function resolveFile(target: string, options: ResolveInputOptions): Promise<FileBlock> {
  const real = await resolveAllowedPath(target, options.cwd, options.allowedRoots);
  const bytes = await readLimited(real, target, MAX_FILE_BYTES, 'file');
  const name = path.basename(real);
  const text = decodeUtf8(bytes);
  if (text !== undefined) return { type: 'file', path: real, name, mediaType: textMediaType(name), text };
  return {
    type: 'file',
    path: real,
    name,
    mediaType: binaryMediaType(bytes),
    data: bytes.toString('base64'),
  };
}

async function readLimited(real: string, label: string, limit: number, what: string): Promise<Buffer> {
  const info = await stat(real);
  if (!info.isFile())
    throw new AgentError('INVALID_INPUT', `'${label}' is not a regular ${what}.`, {
      details: { path: label },
    });
  if (info.size > limit) throw tooLarge(`'${label}' (${info.size} bytes)`, limit);
  // Read at most limit + 1 bytes so a file that grows after the stat is still caught.
  const handle = await open(real, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(info.size, limit) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > limit) throw tooLarge(`'${label}'`, limit);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function tooLarge(label: string, limit: number): AgentError {
  return new AgentError('FILE_TOO_LARGE', `${label} is larger than the ${limit / 1024 / 1024} MB limit.`, {
    details: { limitBytes: limit },
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

const TEXT_TYPES: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
};

function textMediaType(name: string): string {
  return TEXT_TYPES[path.extname(name).toLowerCase()] ?? 'text/plain';
}

function binaryMediaType(bytes: Uint8Array): string {
  if (bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46)
    return 'application/pdf';
  return detectImageFormat(bytes) ?? 'application/octet-stream';
}
