import { extensionSource } from '@youyou/contracts';
import type { ParserRegistry } from '../documents/index.ts';
import type { ServerLogger } from '../logging/index.ts';
import type { LoadedExtension } from './extension-loader.ts';
import { processParser } from './process-parser.ts';

/** The extension's document parsers into ingest's registry, under its source tag (replacing earlier ones). */
export function registerExtensionParsers(
  registry: ParserRegistry,
  extension: LoadedExtension,
  logger: ServerLogger,
): void {
  const id = extension.manifest.id;
  registry.unregisterSource(extensionSource(id));
  for (const parser of extension.parsers) {
    try {
      registry.register(processParser(id, extension.directory, parser));
    } catch (error) {
      logger.warn({ err: error, extension: id, parser: parser.id }, 'an extension parser is not registered');
    }
  }
}

export function unregisterExtensionParsers(registry: ParserRegistry | undefined, id: string): void {
  registry?.unregisterSource(extensionSource(id));
}
