import type { ToolContext, ToolHandler, ToolOutput } from '@youyou/agent';
import { HTTP_TOOL_LIMITS, type DeclarativeHttpTool } from '@youyou/contracts';
import { select } from './json-path.ts';
import {
  fillJson,
  fillString,
  jsonReferencesOf,
  referencesOf,
  type Resolve,
  type TemplateReference,
} from './templates.ts';

/** Raw bytes read from a response before trimming; a larger body fails the call. */
const MAX_RAW_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * Whether a host is one of the allowed domains: an exact name, or `*.example.com` for
 * example.com and any name under it. Case-insensitive; a trailing dot is ignored.
 *
 * @example
 * hostAllowed('api.example.com', ['*.example.com']); // true
 * hostAllowed('example.com.evil.net', ['*.example.com']); // false
 */
export function hostAllowed(host: string, domains: readonly string[]): boolean {
  const name = host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');
  return domains.some((domain) => {
    if (!domain.startsWith('*.')) return name === domain;
    const base = domain.slice(2);
    return name === base || name.endsWith(`.${base}`);
  });
}

/** A tool definition as it is live now, or undefined when its extension (or the tool) is gone. */
export interface LiveHttpTool {
  definition: DeclarativeHttpTool;
  extensionId: string;
  domains: readonly string[];
  /** A setting of the extension (`{{setting:key}}`). */
  setting(key: string): Promise<unknown>;
  /** A secret setting of the extension (`{{secret:key}}`); undefined when none is stored. */
  secret(key: string): Promise<string | undefined>;
}

/** A failed call as a tool result: `Error [CODE]: message`, the dispatcher's shape. */
export function toolError(code: string, message: string, details: Record<string, unknown> = {}): ToolOutput {
  return { content: `Error [${code}]: ${message}`, isError: true, metadata: { code, ...details } };
}

class ToolFailure extends Error {
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

async function readCapped(response: Response, limit: number, signal: AbortSignal): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (reader === undefined) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit)
        throw new ToolFailure('EXTENSION_HTTP_ERROR', `The response is larger than ${limit} bytes.`);
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks);
}

/** Cuts text to `maxBytes` of UTF-8 (never inside a character) and says so. */
export function capText(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.byteLength <= maxBytes) return text;
  let end = maxBytes;
  // Step back over continuation bytes so a character is never split.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString('utf8')}\n[trimmed: ${maxBytes} of ${bytes.byteLength} bytes]`;
}

function hide(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join('[secret]');
  return out;
}

/**
 * Performs one call of a declarative HTTP tool (spec §4.8): fills the templates, refuses any host
 * outside the extension's `requires.network.domains` (redirects included, each hop checked),
 * applies the timeout, trims the response (selection, then size cap). Secret values are filled
 * into headers only and are replaced by `[secret]` wherever they would come back (an echoing
 * endpoint, an error message), so they never reach events or logs.
 *
 * @example
 * const output = await callHttpTool(live, { city: 'Paris' }, signal);
 */
export async function callHttpTool(
  live: LiveHttpTool,
  argumentsObject: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
  fetchImpl: typeof fetch = fetch,
): Promise<ToolOutput> {
  const { definition, domains } = live;
  const secrets: string[] = [];
  try {
    const settings = new Map<string, unknown>();
    const secretValues = new Map<string, string>();
    const wanted = async (references: Iterable<TemplateReference>): Promise<void> => {
      for (const reference of references) {
        if (reference.kind === 'setting' && !settings.has(reference.name))
          settings.set(reference.name, await live.setting(reference.name));
        if (reference.kind === 'secret' && !secretValues.has(reference.name)) {
          const value = await live.secret(reference.name);
          if (value === undefined)
            throw new ToolFailure(
              'EXTENSION_HTTP_ERROR',
              `The secret setting '${reference.name}' of the extension '${live.extensionId}' has no value: set it in Settings.`,
            );
          secretValues.set(reference.name, value);
          secrets.push(value);
        }
      }
    };
    const request = definition.request;
    await wanted([
      ...referencesOf(request.url),
      ...Object.values(request.headers).flatMap(referencesOf),
      ...Object.values(request.query).flatMap(referencesOf),
      ...(request.body === undefined ? [] : jsonReferencesOf(request.body)),
    ]);
    const resolve: Resolve = (reference) => {
      if (reference.kind === 'argument') return argumentsObject[reference.name];
      if (reference.kind === 'setting') return settings.get(reference.name);
      return secretValues.get(reference.name);
    };
    // Secrets belong in headers only: anywhere else they would be echoed into the audit and events.
    const noSecrets: Resolve = (reference) => (reference.kind === 'secret' ? '' : resolve(reference));
    let url: URL;
    try {
      // Arguments are URL-encoded; a setting may hold a whole base URL and goes in as it is.
      url = new URL(
        fillString(request.url, noSecrets, (value, reference) =>
          reference.kind === 'argument' ? encodeURIComponent(value) : value,
        ),
      );
    } catch {
      throw new ToolFailure('INVALID_INPUT', 'The filled-in URL is not a valid URL.');
    }
    for (const [name, template] of Object.entries(request.query)) {
      const value = fillString(template, noSecrets);
      if (value !== '') url.searchParams.append(name, value);
    }
    const headers = new Headers();
    for (const [name, template] of Object.entries(request.headers))
      headers.set(name, fillString(template, resolve));
    let body: string | undefined;
    if (request.body !== undefined && request.method !== 'GET') {
      body = JSON.stringify(fillJson(request.body, noSecrets));
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    if (!headers.has('accept')) headers.set('accept', 'application/json, text/plain;q=0.9, */*;q=0.5');
    const timeout = AbortSignal.timeout(definition.timeout_ms);
    const combined = AbortSignal.any([signal, timeout]);
    let response: Response;
    let method: string = request.method;
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw new ToolFailure(
          'EXTENSION_DOMAIN_NOT_ALLOWED',
          `Only http and https URLs may be called, not ${url.protocol}`,
        );
      if (!hostAllowed(url.hostname, domains)) {
        throw new ToolFailure(
          'EXTENSION_DOMAIN_NOT_ALLOWED',
          `The extension '${live.extensionId}' may not reach ${url.hostname}${hop > 0 ? ' (a redirect pointed there)' : ''}: its allowed domains are ${domains.length === 0 ? 'none' : domains.join(', ')}.`,
          { host: url.hostname },
        );
      }
      try {
        response = await fetchImpl(url, {
          method,
          headers,
          ...(body === undefined ? {} : { body }),
          redirect: 'manual',
          signal: combined,
        });
      } catch (error) {
        if (timeout.aborted)
          throw new ToolFailure(
            'TOOL_TIMEOUT',
            `No answer from ${url.hostname} within ${definition.timeout_ms} ms.`,
          );
        if (signal.aborted) throw error;
        throw new ToolFailure(
          'EXTENSION_HTTP_ERROR',
          `The request to ${url.hostname} failed: ${(error as Error).message}`,
        );
      }
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) break;
      await response.body?.cancel();
      if (hop >= HTTP_TOOL_LIMITS.maxRedirects)
        throw new ToolFailure(
          'EXTENSION_HTTP_ERROR',
          `More than ${HTTP_TOOL_LIMITS.maxRedirects} redirects.`,
        );
      url = new URL(location, url);
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
      }
    }
    const raw = Buffer.from(await readCapped(response, MAX_RAW_RESPONSE_BYTES, combined)).toString('utf8');
    const maxBytes = definition.response.max_bytes;
    if (!response.ok) {
      return toolError(
        'EXTENSION_HTTP_ERROR',
        hide(capText(`HTTP ${response.status}: ${raw}`, Math.min(maxBytes, 2048)), secrets),
        {
          status: response.status,
        },
      );
    }
    let content = raw;
    const contentType = response.headers.get('content-type') ?? '';
    if (definition.response.select !== undefined || contentType.includes('json')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        if (definition.response.select !== undefined)
          throw new ToolFailure(
            'EXTENSION_HTTP_ERROR',
            'The response is not JSON, so the selection cannot apply.',
          );
        parsed = undefined;
      }
      if (parsed !== undefined) {
        const picked =
          definition.response.select === undefined ? parsed : select(parsed, definition.response.select);
        content =
          picked === undefined ? 'null' : typeof picked === 'string' ? picked : JSON.stringify(picked);
      }
    }
    return { content: hide(capText(content, maxBytes), secrets), metadata: { status: response.status } };
  } catch (error) {
    if (error instanceof ToolFailure)
      return toolError(error.code, hide(error.message, secrets), error.details);
    throw error;
  }
}

/**
 * The tool handler of a declarative HTTP tool. It looks its definition up at each call, so a
 * hot-reloaded edit applies to the next call, and a call after its extension was disabled or
 * uninstalled fails with `EXTENSION_REMOVED` (an agent built before still holds the handler).
 */
export function httpToolHandler(
  initial: DeclarativeHttpTool,
  extensionId: string,
  live: () => LiveHttpTool | undefined,
): ToolHandler {
  return {
    name: initial.name,
    description: initial.description,
    parameters: initial.parameters,
    mutating: initial.mutating,
    // The request's own timeout ends the call first; this one is the dispatcher's backstop.
    timeoutMs: HTTP_TOOL_LIMITS.maxTimeoutMs + 5_000,
    execute: async (input, context: ToolContext) => {
      const current = live();
      if (current === undefined)
        return toolError(
          'EXTENSION_REMOVED',
          `The tool '${initial.name}' is no longer available: the extension '${extensionId}' that provided it was removed or disabled.`,
          { extension_id: extensionId },
        );
      return callHttpTool(current, input.arguments, AbortSignal.any([context.signal, context.cancelSignal]));
    },
  };
}
