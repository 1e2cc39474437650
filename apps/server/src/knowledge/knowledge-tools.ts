import type { ToolHandler, ToolOutput } from '@youyou/agent';
import { blockToText, type KnowledgeSource, type RetrievalHit } from '@youyou/contracts';
import { ApiError } from '../errors/index.ts';
import type { RunBindings } from '../run-bindings/index.ts';
import type { KnowledgeService } from './knowledge-service.ts';
import { markedSnippet } from './snippet.ts';

/** What one read_document call returns at most; the rest is the next call. */
const READ_LIMIT_CHARS = 40_000;

function failure(error: unknown): ToolOutput {
  const apiError = ApiError.fromUnknown(error);
  return {
    content: `Error [${apiError.code}]: ${apiError.message}`,
    isError: true,
    metadata: { code: apiError.code },
  };
}

function where(hit: RetrievalHit): string {
  const { location, heading_path: path } = hit.citation;
  const parts: string[] = [];
  if (path.length > 0) parts.push(path.join(' › '));
  if (location.page !== undefined) parts.push(`p. ${location.page}`);
  if (location.slide !== undefined) parts.push(`slide ${location.slide}`);
  if (location.sheet !== undefined) parts.push(`sheet ${location.sheet}`);
  return parts.join(', ');
}

/**
 * `search_knowledge` and `read_document` (spec §4.12): the model searches the project's knowledge
 * (its uploads and artifacts) and reads a document by block or page. Results carry `youyou-doc:`
 * links, which the answer cites as markdown links; the web UI opens them at the block.
 *
 * @example
 * const tools = knowledgeTools({ knowledge, bindings });
 */
export function knowledgeTools(options: {
  knowledge: KnowledgeService;
  bindings: RunBindings;
}): ToolHandler[] {
  const { knowledge, bindings } = options;
  const search: ToolHandler = {
    name: 'search_knowledge',
    description:
      "Search the project's knowledge — its uploaded documents and artifacts — by words (any language; quote an exact phrase). Returns passages with their document, page and a citation link. Cite what you use as a markdown link: [title, p. 3](youyou-doc:…).",
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 1000, description: 'Words or an id to look for.' },
        document_ids: {
          type: 'array',
          items: { type: 'string' },
          maxItems: 100,
          description: 'Ids from earlier results.',
        },
        sources: { type: 'array', items: { type: 'string', enum: ['upload', 'artifact', 'extension'] } },
        top_k: { type: 'integer', minimum: 1, maximum: 50, description: 'Default 8.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    mutating: false,
    async execute({ arguments: input }, context) {
      try {
        const binding = bindings.get(context.sessionId);
        if (binding === undefined)
          return {
            content: 'Error [INVALID_INPUT]: search_knowledge works inside a workbench conversation.',
            isError: true,
          };
        const result = await knowledge.retriever.search(
          {
            query: String(input.query),
            project_id: binding.projectId,
            ...(Array.isArray(input.document_ids) ? { document_ids: input.document_ids.map(String) } : {}),
            ...(Array.isArray(input.sources) ? { sources: input.sources as KnowledgeSource[] } : {}),
            ...(typeof input.top_k === 'number' ? { top_k: input.top_k } : {}),
          },
          { signal: binding.signal },
        );
        if (result.hits.length === 0)
          return {
            content: `Nothing in the project's knowledge matches ${JSON.stringify(result.query)}. Try other or fewer words.`,
            metadata: { hits: [] },
          };
        const lines = result.hits.map((hit) => {
          const place = where(hit);
          return `[${hit.rank}] ${hit.citation.title}${place === '' ? '' : ` — ${place}`}\n    link: ${hit.citation.link}  (document id ${hit.citation.knowledge_id}, blocks ${hit.citation.block_start}–${hit.citation.block_end})\n    ${markedSnippet(hit.citation)}`;
        });
        return {
          content: `${result.hits.length} passages (${result.mode}):\n${lines.join('\n')}\nRead more with read_document; cite with the links.`,
          metadata: { hits: result.hits.map((hit) => ({ ...hit, text: undefined })), mode: result.mode },
        };
      } catch (error) {
        return failure(error);
      }
    },
  };
  const read: ToolHandler = {
    name: 'read_document',
    description:
      'Read a document of the project by its id (from search_knowledge, or an upload or artifact id): blocks from–to (0-based, `to` exclusive) or one page. Each block is shown with its index, which citations link to as #block-N.',
    parameters: {
      type: 'object',
      properties: {
        id: { type: 'string', minLength: 1, maxLength: 128 },
        from: { type: 'integer', minimum: 0 },
        to: { type: 'integer', minimum: 1 },
        page: {
          type: 'integer',
          minimum: 1,
          description: 'A page (PDF) or slide (deck) instead of a block range.',
        },
      },
      required: ['id'],
      additionalProperties: false,
    },
    mutating: false,
    async execute({ arguments: input }) {
      try {
        const excerpt = await knowledge.read(String(input.id), {
          ...(typeof input.from === 'number' ? { from: input.from } : {}),
          ...(typeof input.to === 'number' ? { to: input.to } : {}),
          ...(typeof input.page === 'number' ? { page: input.page } : {}),
        });
        const out: string[] = [];
        let size = 0;
        let last = excerpt.from - 1;
        for (const { index, block } of excerpt.blocks) {
          const text = blockToText(block);
          if (text === '') {
            last = index;
            continue;
          }
          if (size + text.length > READ_LIMIT_CHARS && out.length > 0) break;
          out.push(`[block ${index}] ${text}`);
          size += text.length;
          last = index;
        }
        const rest =
          last + 1 < excerpt.to
            ? `\n[… shown up to block ${last}; continue with from=${last + 1}]`
            : last + 1 < excerpt.total
              ? `\n[${excerpt.total - last - 1} more blocks after this range]`
              : '';
        return {
          content: `${excerpt.item.title} (document id ${excerpt.item.id}, ${excerpt.total} blocks; link youyou-doc:${encodeURIComponent(excerpt.item.id)}#block-N)\n${out.join('\n\n')}${rest}`,
          metadata: { id: excerpt.item.id, from: excerpt.from, to: last + 1, total: excerpt.total },
        };
      } catch (error) {
        return failure(error);
      }
    },
  };
  return [search, read];
}
