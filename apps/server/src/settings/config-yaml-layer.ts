import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAgentError } from '@youyou/agent';
import writeFileAtomic from 'write-file-atomic';
import { CONFIG_FILE, parseConfigFile } from '@youyou/agent/files';
import { isMap, isScalar, parseDocument } from 'yaml';
import { ApiError } from '../errors/index.ts';

/**
 * The user layer of agent settings: keys of `~/.youyou/config.yaml`, the file the agent itself
 * reads, so the library, the CLI and the UI agree on one file (ARCHITECTURE "Settings"). Writes
 * keep the file's comments and other keys, and are checked with the agent's own parser before they
 * replace the file, so the UI can never write a config.yaml the agent would refuse.
 *
 * @example
 * const layer = new ConfigYamlLayer('/home/me/.youyou');
 * await layer.write({ temperature: 0.3 });
 * (await layer.read()).temperature; // 0.3
 */
export class ConfigYamlLayer {
  readonly path: string;
  /** Writes queue behind each other: two quick changes never lose one. */
  #writing: Promise<unknown> = Promise.resolve();

  constructor(home: string) {
    this.path = join(home, CONFIG_FILE);
  }

  /** The file's top-level values (an unreadable file reads as empty: `youyou doctor` says why). */
  async read(): Promise<Record<string, unknown>> {
    const text = await this.#text();
    if (text === undefined) return {};
    try {
      const value: unknown = parseDocument(text).toJS({ maxAliasCount: 100 });
      return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : {};
    } catch {
      return {};
    }
  }

  /** Sets keys (`undefined` removes one). */
  write(changes: Readonly<Record<string, unknown>>): Promise<void> {
    const next = this.#writing.then(() => this.#write(changes));
    this.#writing = next.catch(() => {});
    return next;
  }

  async #write(changes: Readonly<Record<string, unknown>>): Promise<void> {
    const text = (await this.#text()) ?? '';
    const document = parseDocument(text);
    if (document.errors.length > 0 || (document.contents !== null && !isMap(document.contents))) {
      throw new ApiError(
        'CONFIG_PARSE_ERROR',
        `${this.path} is not a valid YAML mapping; fix it first (youyou doctor shows where).`,
        {
          details: { path: this.path },
        },
      );
    }
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) document.delete(key);
      else document.set(key, value);
    }
    if (isMap(document.contents)) {
      // A key emptied by the user (`key:`) stays unset; drop such leftovers of ours.
      document.contents.items = document.contents.items.filter(
        (pair) =>
          !(
            isScalar(pair.value) &&
            pair.value.value === null &&
            Object.hasOwn(changes, String((pair.key as { value?: unknown }).value))
          ),
      );
    }
    const output = document.toString();
    try {
      parseConfigFile(output, this.path);
    } catch (error) {
      if (isAgentError(error)) {
        throw new ApiError('INVALID_INPUT', error.message, { details: error.details });
      }
      throw error;
    }
    // Readers (the agent's file channel) see the old config.yaml or the new one, never half of it.
    await writeFileAtomic(this.path, output);
  }

  async #text(): Promise<string | undefined> {
    try {
      return await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}
