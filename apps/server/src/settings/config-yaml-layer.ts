import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isAgentError } from '@youyou/agent';
import { replaceFile } from './replace-file.ts';
import { CONFIG_FILE, parseConfigFile } from '@youyou/agent/files';
import { isMap, isScalar, parseDocument } from 'yaml';
import { ApiError } from '../errors/index.ts';

/** How long after its last change a file's times may still repeat for a new change, ms (generous). */
const RACY_MS = 1000;

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
  /**
   * The last parse and the file's identity when it was read. Settings are resolved several times
   * per run (issue 28): an unchanged file costs one `stat` instead of a read and a YAML parse. The
   * file is the user's to edit by hand, so nothing but its identity decides whether it changed.
   */
  #parsed: { identity: string; values: Record<string, unknown> } | undefined;

  constructor(home: string) {
    this.path = join(home, CONFIG_FILE);
  }

  /** The file's top-level values (an unreadable file reads as empty: `youyou doctor` says why). */
  async read(): Promise<Record<string, unknown>> {
    const readAt = Date.now();
    const identity = await this.#identity();
    if (identity === undefined) return {};
    // A copy: a resolved setting may hand a value of this map to its caller.
    if (this.#parsed?.identity === identity.key) return structuredClone(this.#parsed.values);
    const text = await this.#text();
    if (text === undefined) return {};
    let values: Record<string, unknown> = {};
    try {
      const value: unknown = parseDocument(text).toJS({ maxAliasCount: 100 });
      if (value !== null && typeof value === 'object' && !Array.isArray(value))
        values = value as Record<string, unknown>;
    } catch {
      // Unparsable reads as empty, as above.
    }
    // File times tick coarsely: a file changed just before this read could change again with the
    // same times (and size). Only a file older than that is remembered (git's "racy clean" rule).
    this.#parsed = identity.modifiedAt < readAt - RACY_MS ? { identity: identity.key, values } : undefined;
    return structuredClone(values);
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
    await replaceFile(this.path, output);
  }

  /** Inode, size, change and modification times: a write through `replaceFile` is a new inode. */
  async #identity(): Promise<{ key: string; modifiedAt: number } | undefined> {
    try {
      const info = await stat(this.path, { bigint: true });
      return {
        key: `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`,
        modifiedAt: Number(info.mtimeMs > info.ctimeMs ? info.mtimeMs : info.ctimeMs),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
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
