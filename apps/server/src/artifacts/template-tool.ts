import type { ToolHandler } from '@youyou/agent';
import { fillTemplate } from '@youyou/contracts';
import { ApiError } from '../errors/index.ts';
import type { ArtifactService, RunScope } from './artifact-service.ts';
import { toolError } from './artifact-tools.ts';
import { DOCX_MEDIA_TYPE, markdownToDocx } from './markdown-docx.ts';

/** A document template as the tool needs it (the extension host's catalog provides them). */
export interface ToolDocumentTemplate {
  id: string;
  title: string;
  format: 'markdown' | 'docx';
  variables: readonly string[];
  body: string;
}

export interface TemplateToolOptions {
  artifacts: ArtifactService;
  /** The installed document templates now (an extension installed or removed changes them). */
  templates(): readonly ToolDocumentTemplate[];
  /** Stores a file the run made as a file of its conversation (it lists among the artifacts). */
  saveFile(
    scope: RunScope,
    file: { name: string; mediaType: string; bytes: Uint8Array },
  ): Promise<{ id: string }>;
}

/** The tool's name. */
export const TEMPLATE_TOOL_NAME = 'create_from_template';

function fileTitle(title: string, extension: '.md' | '.docx'): string {
  const base = title.trim().replace(/\.(md|markdown|docx)$/i, '');
  return `${base}${extension}`;
}

/**
 * The installed document templates for the system prompt, so the model knows what it can make;
 * '' with none (T0: the prompt is unchanged).
 *
 * @example
 * documentTemplateCatalog(templates); // 'Document templates (create_from_template): …'
 */
export function documentTemplateCatalog(templates: readonly ToolDocumentTemplate[]): string {
  if (templates.length === 0) return '';
  const lines = templates.map(
    (template) =>
      `- ${template.id}: ${template.title} (${template.format}${template.variables.length === 0 ? '' : `; placeholders: ${template.variables.join(', ')}`})`,
  );
  return `Document templates (make one with ${TEMPLATE_TOOL_NAME}):\n${lines.join('\n')}`;
}

/**
 * `create_from_template` (spec §4.6 `templates/`): fills an installed document template's
 * `{{name}}` placeholders with the values the model gives and writes the result as an artifact of
 * the conversation — a Markdown artifact, or a Word file (written by the `docx` writer from the
 * filled Markdown) that lists and opens with the conversation's files. Without a template, or
 * with an unknown one, the answer lists the templates there are; a missing value is named.
 *
 * @example
 * toolset.register([templateTool({ artifacts, templates: () => host.documentTemplates(), saveFile })]);
 */
export function templateTool(options: TemplateToolOptions): ToolHandler {
  return {
    name: TEMPLATE_TOOL_NAME,
    description:
      "Create a document from one of the installed document templates (the system prompt lists them): give the template's id and a value for each of its placeholders. Makes a Markdown artifact or a Word file, as the template says (or as `format` asks).",
    parameters: {
      type: 'object',
      properties: {
        template: {
          type: 'string',
          description: 'The template id, e.g. "example/trip-brief".',
          maxLength: 200,
        },
        values: {
          type: 'object',
          description: 'A value for each placeholder of the template, by name.',
          additionalProperties: { type: 'string' },
        },
        title: {
          type: 'string',
          description: "The document's title; default the template's.",
          maxLength: 200,
        },
        format: {
          type: 'string',
          enum: ['markdown', 'docx'],
          description: "Default: the template's format.",
        },
      },
      required: ['template'],
      additionalProperties: false,
    },
    mutating: true,
    async execute(input, context) {
      try {
        const templates = options.templates();
        const id = typeof input.arguments['template'] === 'string' ? input.arguments['template'] : '';
        const template = templates.find((item) => item.id === id);
        if (template === undefined) {
          const known = templates.map(
            (item) => `${item.id} (${item.variables.join(', ') || 'no placeholders'})`,
          );
          throw new ApiError(
            'NOT_FOUND',
            `No document template has id '${id}'. ${known.length === 0 ? 'No template is installed.' : `Templates: ${known.join('; ')}.`}`,
            { details: { resource: 'document template', id } },
          );
        }
        const given = input.arguments['values'];
        const values: Record<string, string> = {};
        if (typeof given === 'object' && given !== null)
          for (const [name, value] of Object.entries(given as Record<string, unknown>))
            if (typeof value === 'string' || typeof value === 'number') values[name] = String(value);
        const missing = template.variables.filter((name) => (values[name] ?? '').trim() === '');
        if (missing.length > 0)
          throw new ApiError(
            'INVALID_INPUT',
            `The template ${template.id} needs a value for: ${missing.join(', ')}.`,
            {
              details: { missing },
            },
          );
        const requested = input.arguments['format'];
        const format = requested === 'markdown' || requested === 'docx' ? requested : template.format;
        const title =
          typeof input.arguments['title'] === 'string' && input.arguments['title'].trim() !== ''
            ? input.arguments['title']
            : template.title;
        const content = fillTemplate(template.body, values).trim();
        const scope = await options.artifacts.scopeOf(context.sessionId);
        if (format === 'markdown') {
          const artifact = await options.artifacts.create(scope, {
            title: fileTitle(title, '.md'),
            kind: 'markdown',
            content: `${content}\n`,
            callId: input.callId,
          });
          return {
            content: `Created artifact "${artifact.title}" (id ${artifact.id}, markdown, from the template ${template.id}).`,
            metadata: { artifact_id: artifact.id, version: 1 },
          };
        }
        const name = fileTitle(title, '.docx');
        const bytes = await markdownToDocx(content, title);
        const file = await options.saveFile(scope, { name, mediaType: DOCX_MEDIA_TYPE, bytes });
        return {
          content: `Created the Word document "${name}" (id ${file.id}, ${bytes.byteLength} bytes, from the template ${template.id}); it is among the conversation's files.`,
          metadata: { artifact_id: file.id },
        };
      } catch (error) {
        return toolError(error);
      }
    },
  };
}
