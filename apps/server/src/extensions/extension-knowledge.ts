import { join } from 'node:path';
import type { KnowledgePackFile } from '../knowledge/index.ts';
import type { ServerLogger } from '../logging/index.ts';
import type { LoadedExtension } from './extension-loader.ts';

/** Where knowledge packs are indexed (the knowledge service). */
export interface KnowledgePacks {
  indexPacks(extensionId: string, files: readonly KnowledgePackFile[]): Promise<void>;
  forgetPacks(extensionId: string): Promise<void>;
}

/** The packs' files into the knowledge index, in the background (each item shows its status). */
export function indexExtensionKnowledge(
  knowledge: KnowledgePacks | undefined,
  extension: LoadedExtension,
  logger: ServerLogger,
): void {
  if (knowledge === undefined) return;
  const id = extension.manifest.id;
  const files = extension.knowledge.flatMap((pack) =>
    pack.files.map((relative) => ({
      pack: pack.id,
      relative,
      path: join(extension.directory, relative),
      root: extension.directory,
    })),
  );
  knowledge
    .indexPacks(id, files)
    .catch((error: unknown) => logger.warn({ err: error, extension: id }, 'a knowledge pack is not indexed'));
}

export function forgetExtensionKnowledge(
  knowledge: KnowledgePacks | undefined,
  id: string,
  logger: ServerLogger,
): void {
  knowledge
    ?.forgetPacks(id)
    .catch((error: unknown) =>
      logger.warn({ err: error, extension: id }, 'a knowledge pack is not removed from the index'),
    );
}
