import {
  ParserSourceSchema,
  type DocumentFormat,
  type DocumentParsePolicy,
  type ParserInfo,
  type ParserProvider,
} from '@youyou/contracts';
import { ApiError } from '../errors/index.ts';
import type { ParseWorkerPool } from './worker-pool.ts';
import { BUILTIN_PARSERS, HTTP_SERVICE_PARSER_ID, httpServiceParser } from './parsers/index.ts';

/**
 * The ParserProvider registry (spec §4.1 principle 4, §4.11): every parser with its source tag
 * (`builtin`, `user`, `extension:<id>`), listable and removable by source. Policies name parsers
 * by id; `builtin` names the built-in parser of the format and `http-service` the external
 * service of the policy. An extension's parser has the id `extension:<extension id>/<parser id>`
 * (`rtf: extension:example/rtf → builtin`); a format without a built-in parser and without a
 * policy entry is read by the parsers registered for it.
 *
 * @example
 * const registry = new ParserRegistry();
 * registry.register({ id: 'acme.ocr', version: '1', source: 'extension:acme', formats: ['pdf'], parse });
 * registry.chain('pdf', policy); // [builtin-pdf, acme.ocr] for chain ['builtin', 'acme.ocr']
 */
export class ParserRegistry {
  readonly #parsers = new Map<string, ParserProvider>();

  /** `workers`: the built-in parsers run in that pool, off the server's main thread (issue 31). */
  constructor(options: { builtins?: boolean; workers?: ParseWorkerPool | undefined } = {}) {
    if (options.builtins !== false)
      for (const parser of options.workers?.parsers() ?? BUILTIN_PARSERS) this.register(parser);
  }

  /** Adds a parser; its id must be new and its source a valid tag. */
  register(parser: ParserProvider): void {
    if (!ParserSourceSchema.safeParse(parser.source).success)
      throw new ApiError(
        'INVALID_INPUT',
        `Parser ${parser.id} has an invalid source tag '${parser.source}'.`,
      );
    if (parser.id === 'builtin' || parser.id === HTTP_SERVICE_PARSER_ID || this.#parsers.has(parser.id))
      throw new ApiError('CONFLICT', `A parser with id '${parser.id}' is already registered.`);
    this.#parsers.set(parser.id, parser);
  }

  unregister(id: string): boolean {
    return this.#parsers.delete(id);
  }

  /** Removes every parser of one source (an extension being disabled); returns how many. */
  unregisterSource(source: string): number {
    let removed = 0;
    for (const [id, parser] of this.#parsers) {
      if (parser.source === source) {
        this.#parsers.delete(id);
        removed++;
      }
    }
    return removed;
  }

  get(id: string): ParserProvider | undefined {
    return this.#parsers.get(id);
  }

  /** The built-in parser of a format. */
  builtin(format: DocumentFormat): ParserProvider | undefined {
    return [...this.#parsers.values()].find(
      (parser) => parser.source === 'builtin' && parser.formats.includes(format),
    );
  }

  /** Every registered parser, plus the external service slot (available when the policy has a URL). */
  list(policy?: DocumentParsePolicy): ParserInfo[] {
    const listed: ParserInfo[] = [...this.#parsers.values()].map((parser) => ({
      id: parser.id,
      version: parser.version,
      source: parser.source,
      formats: [...parser.formats],
      available: true,
    }));
    const service = httpServiceParser({ url: policy?.service.url ?? 'http://127.0.0.1/', timeout_ms: 1000 });
    listed.push({
      id: service.id,
      version: service.version,
      source: service.source,
      formats: [...service.formats],
      available: policy?.service.url !== null && policy?.service.url !== undefined,
    });
    return listed;
  }

  /**
   * The parsers a policy's chain names for a format, in order, with the names it could not use
   * (unknown, not for this format, or the service without a URL).
   */
  chain(
    format: DocumentFormat,
    policy: DocumentParsePolicy,
  ): { parsers: ParserProvider[]; skipped: string[] } {
    const entry = policy.formats[format] ?? { chain: ['builtin'], cross_validate: false };
    const parsers: ParserProvider[] = [];
    const skipped: string[] = [];
    // A format no built-in parser reads (rtf) and no policy names: the parsers registered for it
    // (an installed extension's), in the order they came.
    if (policy.formats[format] === undefined && this.builtin(format) === undefined) {
      const registered = [...this.#parsers.values()].filter((parser) => parser.formats.includes(format));
      if (registered.length > 0) return { parsers: registered, skipped };
    }
    for (const name of entry.chain) {
      let parser: ParserProvider | undefined;
      if (name === 'builtin') parser = this.builtin(format);
      else if (name === HTTP_SERVICE_PARSER_ID) {
        const url = policy.service.url;
        parser = url === null ? undefined : httpServiceParser({ url, timeout_ms: policy.service.timeout_ms });
      } else parser = this.get(name);
      if (parser === undefined || !parser.formats.includes(format)) skipped.push(name);
      else if (!parsers.some((known) => known.id === parser.id)) parsers.push(parser);
    }
    return { parsers, skipped };
  }
}
