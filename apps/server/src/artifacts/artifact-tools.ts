import type { ToolHandler, ToolOutput } from '@youyou/agent';
import { WRITABLE_ARTIFACT_KINDS, type ArtifactEdit } from '@youyou/contracts';
import { ApiError } from '../errors/index.ts';
import type { ArtifactService, WritableArtifactKind } from './artifact-service.ts';

/** The most text one `read_artifact` call returns; longer ranges are cut with a note. */
export const READ_LIMIT_BYTES = 24 * 1024;

/** A tool's failure as the model reads it: the stable code first, then what to do. */
export function toolError(error: unknown): ToolOutput {
  const failure = ApiError.fromUnknown(error);
  return { content: `Error [${failure.code}]: ${failure.message}`, isError: true };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function integer(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : undefined;
}

const createArtifact = (artifacts: ArtifactService): ToolHandler => ({
  name: 'create_artifact',
  description:
    'Write a document the user opens beside the conversation (a report, plan, code, diagram, table) instead of pasting long content. Titles are unique per conversation; change one with update_artifact.',
  parameters: {
    type: 'object',
    properties: {
      title: { type: 'string', description: 'A short title, e.g. "release-plan.md".', maxLength: 200 },
      kind: {
        type: 'string',
        enum: [...WRITABLE_ARTIFACT_KINDS],
        description: 'code takes a language; html shows as a sandboxed page; mermaid is diagram source',
      },
      language: { type: 'string', description: 'For kind "code".' },
      content: { type: 'string', description: 'The whole text.' },
    },
    required: ['title', 'kind', 'content'],
    additionalProperties: false,
  },
  mutating: true,
  async execute(input, context) {
    try {
      const scope = await artifacts.scopeOf(context.sessionId);
      const artifact = await artifacts.create(scope, {
        title: text(input.arguments['title']) ?? '',
        kind: input.arguments['kind'] as WritableArtifactKind,
        language: text(input.arguments['language']),
        content: text(input.arguments['content']) ?? '',
        callId: input.callId,
      });
      return {
        content: `Created artifact "${artifact.title}" (id ${artifact.id}, ${artifact.kind}, version 1, ${artifact.size} bytes).`,
        metadata: { artifact_id: artifact.id, version: 1 },
      };
    } catch (error) {
      return toolError(error);
    }
  },
});

const updateArtifact = (artifacts: ArtifactService): ToolHandler => ({
  name: 'update_artifact',
  description:
    'Change an artifact; every change is a new version (older ones are kept). Either give `content` (the whole new text) or `edits`: exact find → replace pairs applied in order; each `find` must occur exactly once (copy it from read_artifact, with enough context to be unique). Nothing is changed when any edit fails.',
  parameters: {
    type: 'object',
    properties: {
      artifact: { type: 'string', description: 'Its id or exact title.' },
      content: { type: 'string' },
      edits: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          properties: {
            find: { type: 'string', minLength: 1 },
            replace: { type: 'string' },
          },
          required: ['find', 'replace'],
          additionalProperties: false,
        },
      },
    },
    required: ['artifact'],
    additionalProperties: false,
  },
  mutating: true,
  async execute(input, context) {
    try {
      const scope = await artifacts.scopeOf(context.sessionId);
      const result = await artifacts.update(scope, {
        reference: text(input.arguments['artifact']) ?? '',
        content: text(input.arguments['content']),
        edits: input.arguments['edits'] as ArtifactEdit[] | undefined,
        callId: input.callId,
      });
      return {
        content: `Updated artifact "${result.artifact.title}" (id ${result.artifact.id}) to version ${result.version.version}: +${result.added} −${result.removed} lines, ${result.artifact.size} bytes.`,
        metadata: { artifact_id: result.artifact.id, version: result.version.version },
      };
    } catch (error) {
      return toolError(error);
    }
  },
});

const readArtifact = (artifacts: ArtifactService): ToolHandler => ({
  name: 'read_artifact',
  description:
    'Read an artifact of this conversation (tool results too long to return whole are stored as artifacts too). Optionally a 1-based line range and a version.',
  parameters: {
    type: 'object',
    properties: {
      artifact: { type: 'string', description: 'Its id or exact title.' },
      from_line: { type: 'integer', minimum: 1 },
      to_line: { type: 'integer', minimum: 1 },
      version: { type: 'integer', minimum: 1, description: 'Default: the newest.' },
    },
    required: ['artifact'],
    additionalProperties: false,
  },
  mutating: false,
  async execute(input, context) {
    try {
      const scope = await artifacts.scopeOf(context.sessionId);
      const excerpt = await artifacts.read(scope.conversationId, text(input.arguments['artifact']) ?? '', {
        from: integer(input.arguments['from_line']),
        to: integer(input.arguments['to_line']),
        version: integer(input.arguments['version']),
      });
      let body = excerpt.text;
      let to = excerpt.to;
      if (Buffer.byteLength(body) > READ_LIMIT_BYTES) {
        const lines = body.split('\n');
        let bytes = 0;
        let kept = 0;
        while (kept < lines.length && bytes + Buffer.byteLength(lines[kept] ?? '') + 1 <= READ_LIMIT_BYTES) {
          bytes += Buffer.byteLength(lines[kept] ?? '') + 1;
          kept++;
        }
        body = lines.slice(0, Math.max(kept, 1)).join('\n').slice(0, READ_LIMIT_BYTES);
        to = excerpt.from + Math.max(kept, 1) - 1;
      }
      const more =
        to < excerpt.total_lines
          ? `\n[… ${excerpt.total_lines - to} more lines: read from_line ${to + 1}.]`
          : '';
      return {
        content: `Artifact "${excerpt.artifact.title}" (id ${excerpt.artifact.id}, ${excerpt.artifact.kind}, version ${excerpt.version}), lines ${excerpt.from}–${to} of ${excerpt.total_lines}:\n${body}${more}`,
      };
    } catch (error) {
      return toolError(error);
    }
  },
});

const listArtifacts = (artifacts: ArtifactService): ToolHandler => ({
  name: 'list_artifacts',
  description: 'List the artifacts and uploaded files of this conversation: id, title, kind, version, size.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  mutating: false,
  async execute(_input, context) {
    try {
      const scope = await artifacts.scopeOf(context.sessionId);
      const list = await artifacts.list({ conversationId: scope.conversationId });
      if (list.length === 0) return { content: 'This conversation has no artifacts yet.' };
      return {
        content: list
          .map(
            (artifact) =>
              `- ${artifact.id} · "${artifact.title}" · ${artifact.kind}${artifact.language === null ? '' : ` (${artifact.language})`} · v${artifact.version} · ${artifact.size} bytes`,
          )
          .join('\n'),
      };
    } catch (error) {
      return toolError(error);
    }
  },
});

/**
 * The artifact tools the workbench gives every agent: create, update (whole or exact edits),
 * read (line ranges), list.
 *
 * @example
 * for (const tool of artifactTools(artifacts)) builder.addTool(tool);
 */
export function artifactTools(artifacts: ArtifactService): ToolHandler[] {
  return [
    createArtifact(artifacts),
    updateArtifact(artifacts),
    readArtifact(artifacts),
    listArtifacts(artifacts),
  ];
}
