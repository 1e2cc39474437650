import { createRoute, z } from '@hono/zod-openapi';
import {
  CommandListSchema,
  LibraryFileSchema,
  MacroInputSchema,
  MacroSchema,
  SnippetInputSchema,
  SnippetSchema,
} from '@youyou/contracts';
import { ComponentStore } from '@youyou/agent/files';
import {
  conversationMarkdown,
  CONVERSATION_EXPORT_FORMAT,
  exportConversation,
} from '../../conversations/index.ts';
import { conversationOfRow } from '../../storage/index.ts';
import { errorResponses, IdParameter, json, jsonBody } from '../schemas/index.ts';
import type { ServerServices } from '../../services/index.ts';
import { createRouter } from './router.ts';

const tags = ['commands'];

const listCommands = createRoute({
  method: 'get',
  path: '/commands',
  tags,
  summary:
    'Every / command with its source (builtin, skill, macro, extension, mcp: the prompts of connected MCP servers) and its parameter form',
  request: { query: z.object({ project_id: z.string().max(128).optional() }) },
  responses: { 200: json(CommandListSchema), ...errorResponses(404) },
});
const listMacros = createRoute({
  method: 'get',
  path: '/macros',
  tags,
  summary: 'Your macros: /name expands to a prompt template with {{variables}}',
  responses: { 200: json(z.object({ macros: z.array(MacroSchema) })), ...errorResponses() },
});
const createMacro = createRoute({
  method: 'post',
  path: '/macros',
  tags,
  summary: 'Create a macro',
  request: { body: jsonBody(MacroInputSchema) },
  responses: { 201: json(MacroSchema, 'Created'), ...errorResponses(409) },
});
const updateMacro = createRoute({
  method: 'patch',
  path: '/macros/{id}',
  tags,
  summary: 'Change a macro',
  request: { params: IdParameter, body: jsonBody(MacroInputSchema.partial()) },
  responses: { 200: json(MacroSchema), ...errorResponses(404, 409) },
});
const deleteMacro = createRoute({
  method: 'delete',
  path: '/macros/{id}',
  tags,
  summary: 'Delete a macro',
  request: { params: IdParameter },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(404) },
});
const listSnippets = createRoute({
  method: 'get',
  path: '/snippets',
  tags,
  summary: 'The snippet library (q searches title, text and tags)',
  request: { query: z.object({ q: z.string().max(200).optional() }) },
  responses: { 200: json(z.object({ snippets: z.array(SnippetSchema) })), ...errorResponses() },
});
const createSnippet = createRoute({
  method: 'post',
  path: '/snippets',
  tags,
  summary: 'Add a snippet',
  request: { body: jsonBody(SnippetInputSchema) },
  responses: { 201: json(SnippetSchema, 'Created'), ...errorResponses() },
});
const updateSnippet = createRoute({
  method: 'patch',
  path: '/snippets/{id}',
  tags,
  summary: 'Change a snippet',
  request: { params: IdParameter, body: jsonBody(SnippetInputSchema.partial()) },
  responses: { 200: json(SnippetSchema), ...errorResponses(404) },
});
const deleteSnippet = createRoute({
  method: 'delete',
  path: '/snippets/{id}',
  tags,
  summary: 'Delete a snippet',
  request: { params: IdParameter },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(404) },
});
const exportLibrary = createRoute({
  method: 'get',
  path: '/library/export',
  tags,
  summary: 'Snippets and macros as one youyou.library JSON file',
  responses: { 200: json(LibraryFileSchema), ...errorResponses() },
});
const importLibrary = createRoute({
  method: 'post',
  path: '/library/import',
  tags,
  summary: 'Import a youyou.library file; a bad file is INVALID_INPUT and imports nothing',
  responses: {
    201: json(z.object({ snippets: z.number(), macros: z.number() }), 'Imported'),
    ...errorResponses(409),
  },
});
const exportConversationRoute = createRoute({
  method: 'get',
  path: '/conversations/{id}/export',
  tags: ['conversations'],
  summary: 'The active branch as a Markdown or JSON download',
  request: { params: IdParameter, query: z.object({ format: z.enum(['markdown', 'json']).optional() }) },
  responses: { 200: { description: 'text/markdown or application/json' }, ...errorResponses(404) },
});

/** A file name from a title: letters, digits, dashes. */
function fileNameOf(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug === '' ? 'conversation' : slug;
}

/** Commands, macros, the snippet library, conversation export (spec §4.14, §4.16). */
export function libraryRoutes(services: ServerServices) {
  const { library, commands, config } = services;
  return createRouter()
    .openapi(listCommands, async (c) => {
      const projectId = c.req.valid('query').project_id;
      const project = projectId === undefined ? undefined : await services.projects.get(projectId);
      const store = new ComponentStore({ cwd: project?.directory ?? config.home, home: config.home });
      const listing = await store.list();
      const skills = listing.components
        .filter((entry) => entry.kind === 'skill' && entry.enabled && entry.overriddenBy === undefined)
        .map((entry) => ({ name: entry.name, description: entry.description, layer: entry.layer }));
      const prompts = await services.mcp.prompts(projectId ?? null);
      return c.json({ commands: commands.list({ skills, macros: await library.macros(), prompts }) }, 200);
    })
    .openapi(listMacros, async (c) => c.json({ macros: await library.macros() }, 200))
    .openapi(createMacro, async (c) => c.json(await library.createMacro(c.req.valid('json')), 201))
    .openapi(updateMacro, async (c) =>
      c.json(await library.updateMacro(c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(deleteMacro, async (c) => {
      await library.deleteMacro(c.req.valid('param').id);
      return c.body(null, 204);
    })
    .openapi(listSnippets, async (c) =>
      c.json({ snippets: await library.snippets(c.req.valid('query').q) }, 200),
    )
    .openapi(createSnippet, async (c) => c.json(await library.createSnippet(c.req.valid('json')), 201))
    .openapi(updateSnippet, async (c) =>
      c.json(await library.updateSnippet(c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(deleteSnippet, async (c) => {
      await library.deleteSnippet(c.req.valid('param').id);
      return c.body(null, 204);
    })
    .openapi(exportLibrary, async (c) => {
      c.header('content-disposition', 'attachment; filename="youyou-library.json"');
      return c.json(await library.export(), 200);
    })
    .openapi(importLibrary, async (c) => c.json(await library.import(await c.req.text()), 201))
    .openapi(exportConversationRoute, async (c) => {
      const { id } = c.req.valid('param');
      const format = c.req.valid('query').format ?? 'markdown';
      const summary = conversationOfRow(await services.conversations.get(id));
      const exported = await exportConversation(services.database.db, services.database.dialect, summary);
      const name = fileNameOf(summary.title);
      if (format === 'json') {
        return new Response(JSON.stringify(exported, null, 2), {
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'content-disposition': `attachment; filename="${name}.json"`,
            'x-youyou-format': CONVERSATION_EXPORT_FORMAT,
          },
        });
      }
      return new Response(conversationMarkdown(exported), {
        headers: {
          'content-type': 'text/markdown; charset=utf-8',
          'content-disposition': `attachment; filename="${name}.md"`,
        },
      });
    });
}
