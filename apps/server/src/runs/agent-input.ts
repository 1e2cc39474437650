import { realpath } from 'node:fs/promises';
import { sep } from 'node:path';
import type { ImageMediaType, UserInputBlock } from '@youyou/agent';
import { documentForModel, type DocumentService } from '../documents/index.ts';
import type { MessageInput } from '../events/index.ts';
import type { ObjectStore } from '../storage/index.ts';

const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

async function isInside(file: string, roots: readonly string[]): Promise<boolean> {
  const real = await realpath(file).catch(() => file);
  for (const root of roots) {
    const realRoot = await realpath(root).catch(() => root);
    if (real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) return true;
  }
  return false;
}

/**
 * The agent's input for a message: its text, its skill invocations, and its uploads. Images go in
 * as bytes; other files as paths the agent reads and checks itself (size, text or document) when
 * the object store lies in a folder the agent may read (the default: the data directory is inside
 * the YouYou home), else as their text. A file a parser reads (docx, pdf, …) goes in as its parsed
 * text — or, when it could not be read, as a plain note of why (spec §4.11), never its raw bytes.
 *
 * @example
 * const input = await agentInputOf(message, { objects, allowedRoots: [cwd, home] });
 * session.send(input);
 */
export async function agentInputOf(
  input: MessageInput,
  options: {
    objects: ObjectStore;
    storagePaths: ReadonlyMap<string, string>;
    allowedRoots: readonly string[];
    documents?: DocumentService;
    /** How long to wait for a document still being parsed. */
    documentWaitMs?: number;
  },
): Promise<UserInputBlock[]> {
  const blocks: UserInputBlock[] = [];
  for (const skill of input.skills) {
    blocks.push({
      type: 'skill',
      name: skill.name,
      ...(skill.arguments === undefined ? {} : { arguments: skill.arguments }),
    });
  }
  if (input.text !== '') blocks.push({ type: 'text', text: input.text });
  for (const attachment of input.attachments) {
    const storagePath = options.storagePaths.get(attachment.upload_id);
    if (storagePath === undefined) continue;
    const file = options.objects.resolve(storagePath);
    const document = IMAGE_TYPES.has(attachment.media_type)
      ? undefined
      : await options.documents?.ofUpload(attachment.upload_id);
    if (document !== undefined && options.documents !== undefined) {
      const settled = await options.documents.settled(document.id, options.documentWaitMs ?? 30_000);
      const parsed =
        settled.status === 'parsed' || settled.status === 'indexed'
          ? await options.documents.parsed(settled.id)
          : undefined;
      blocks.push({ type: 'text', text: documentForModel(settled, parsed) });
    } else if (IMAGE_TYPES.has(attachment.media_type)) {
      blocks.push({
        type: 'image',
        data: await options.objects.read(storagePath),
        mediaType: attachment.media_type as ImageMediaType,
      });
    } else if (await isInside(file, options.allowedRoots)) {
      blocks.push({ type: 'file', path: file });
    } else {
      const text = new TextDecoder('utf-8', { fatal: false }).decode(await options.objects.read(storagePath));
      blocks.push({
        type: 'text',
        text: `<file name="${attachment.name.replaceAll('"', "'")}">\n${text}\n</file>`,
      });
    }
  }
  return blocks;
}
