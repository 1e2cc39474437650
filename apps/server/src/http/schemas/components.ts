import { z } from '@hono/zod-openapi';

export const ComponentKindSchema = z.enum(['tool', 'skill', 'plugin']);
export const FileLayerSchema = z.enum(['global', 'project']);

export const ComponentEntrySchema = z
  .object({
    kind: ComponentKindSchema,
    name: z.string(),
    layer: z.enum(['programmatic', 'global', 'project']),
    path: z.string().optional(),
    overriddenBy: z.enum(['programmatic', 'global', 'project']).optional(),
    enabled: z.boolean(),
    description: z.string(),
  })
  .openapi('ComponentEntry');

export const ComponentListSchema = z
  .object({
    components: z.array(ComponentEntrySchema),
    diagnostics: z.array(
      z.object({
        path: z.string(),
        reason: z.string(),
        severity: z.enum(['error', 'warning']),
        kind: ComponentKindSchema.optional(),
        layer: FileLayerSchema.optional(),
        line: z.number().optional(),
      }),
    ),
  })
  .openapi('ComponentList');

export const ComponentDocumentSchema = z
  .object({
    kind: ComponentKindSchema,
    name: z.string(),
    layer: FileLayerSchema,
    entryFile: z.string(),
    entry: z.string(),
    frontMatter: z.record(z.string(), z.unknown()),
    body: z.string(),
    files: z.array(z.string()),
    warnings: z.array(z.object({ message: z.string(), line: z.number().optional() })),
  })
  .openapi('ComponentDocument');

const ComponentFileSchema = z.object({
  path: z.string().min(1).max(500),
  content: z.string().max(5_000_000),
  executable: z.boolean().optional(),
});

export const ComponentCreateSchema = z
  .object({
    kind: ComponentKindSchema,
    name: z.string().min(1).max(64),
    layer: FileLayerSchema,
    project_id: z.string().optional(),
    front_matter: z.record(z.string(), z.unknown()).optional(),
    frontMatter: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'Same as front_matter.' }),
    body: z.string().max(1_000_000).optional(),
    entry: z.string().max(1_000_000).optional(),
    entry_file: z.enum(['index.md', 'SKILL.md']).optional(),
    entryFile: z.enum(['index.md', 'SKILL.md']).optional().openapi({ description: 'Same as entry_file.' }),
    files: z.array(ComponentFileSchema).max(100).optional(),
  })
  .openapi('ComponentCreate');

export const ComponentUpdateSchema = z
  .object({
    layer: FileLayerSchema.optional().openapi({ description: 'Here or in the query.' }),
    project_id: z.string().optional(),
    front_matter: z.record(z.string(), z.unknown()).optional(),
    frontMatter: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'Same as front_matter.' }),
    body: z.string().max(1_000_000).optional(),
    entry: z.string().max(1_000_000).optional(),
    files: z.array(ComponentFileSchema).max(100).optional(),
    remove_files: z.array(z.string().min(1).max(500)).max(100).optional(),
    removeFiles: z
      .array(z.string().min(1).max(500))
      .max(100)
      .optional()
      .openapi({ description: 'Same as remove_files.' }),
  })
  .openapi('ComponentUpdate');

export const PluginToggleSchema = z
  .object({
    enabled: z.boolean().nullable().openapi({ description: 'null clears the runtime toggle.' }),
    scope: FileLayerSchema.optional(),
    project_id: z.string().optional(),
  })
  .openapi('PluginToggle');

export const PluginEnabledSchema = z
  .object({ enabled: z.boolean().nullable(), scope: FileLayerSchema.optional() })
  .openapi('PluginEnabled');

export const OptionalLocationQuery = z.object({
  layer: FileLayerSchema.optional(),
  project_id: z.string().optional(),
});

export const ComponentLocationQuery = z.object({
  layer: FileLayerSchema,
  project_id: z.string().optional(),
});

export const ComponentPathParameters = z.object({
  kind: ComponentKindSchema.openapi({ param: { name: 'kind', in: 'path' } }),
  name: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'name', in: 'path' } }),
});
