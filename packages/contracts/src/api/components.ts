import { z } from 'zod';

export const ComponentKindSchema = z.enum(['tool', 'skill', 'plugin']);
export const FileLayerSchema = z.enum(['global', 'project']);
export const ComponentLayerSchema = z.enum(['programmatic', 'global', 'project']);

export const ComponentEntrySchema = z
  .object({
    kind: ComponentKindSchema,
    name: z.string(),
    layer: ComponentLayerSchema,
    path: z.string().optional(),
    overriddenBy: ComponentLayerSchema.optional(),
    enabled: z.boolean(),
    description: z.string(),
  })
  .meta({ id: 'ComponentEntry' });

/** A component file that did not load, or loaded with a warning. */
export const ComponentDiagnosticSchema = z.object({
  path: z.string(),
  reason: z.string(),
  severity: z.enum(['error', 'warning']),
  kind: ComponentKindSchema.optional(),
  layer: FileLayerSchema.optional(),
  line: z.number().optional(),
});

export const ComponentListSchema = z
  .object({ components: z.array(ComponentEntrySchema), diagnostics: z.array(ComponentDiagnosticSchema) })
  .meta({ id: 'ComponentList' });

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
  .meta({ id: 'ComponentDocument' });

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
    frontMatter: z.record(z.string(), z.unknown()).optional().meta({ description: 'Same as front_matter.' }),
    body: z.string().max(1_000_000).optional(),
    entry: z.string().max(1_000_000).optional(),
    entry_file: z.enum(['index.md', 'SKILL.md']).optional(),
    entryFile: z.enum(['index.md', 'SKILL.md']).optional().meta({ description: 'Same as entry_file.' }),
    files: z.array(ComponentFileSchema).max(100).optional(),
  })
  .meta({ id: 'ComponentCreate' });

export const ComponentUpdateSchema = z
  .object({
    layer: FileLayerSchema.optional().meta({ description: 'Here or in the query.' }),
    project_id: z.string().optional(),
    front_matter: z.record(z.string(), z.unknown()).optional(),
    frontMatter: z.record(z.string(), z.unknown()).optional().meta({ description: 'Same as front_matter.' }),
    body: z.string().max(1_000_000).optional(),
    entry: z.string().max(1_000_000).optional(),
    files: z.array(ComponentFileSchema).max(100).optional(),
    remove_files: z.array(z.string().min(1).max(500)).max(100).optional(),
    removeFiles: z
      .array(z.string().min(1).max(500))
      .max(100)
      .optional()
      .meta({ description: 'Same as remove_files.' }),
  })
  .meta({ id: 'ComponentUpdate' });

export const PluginToggleSchema = z
  .object({
    enabled: z.boolean().nullable().meta({ description: 'null clears the runtime toggle.' }),
    scope: FileLayerSchema.optional(),
    project_id: z.string().optional(),
  })
  .meta({ id: 'PluginToggle' });

export const PluginEnabledSchema = z
  .object({ enabled: z.boolean().nullable(), scope: FileLayerSchema.optional() })
  .meta({ id: 'PluginEnabled' });

export const OptionalLocationQuerySchema = z.object({
  layer: FileLayerSchema.optional(),
  project_id: z.string().optional(),
});

export const ComponentLocationQuerySchema = z.object({
  layer: FileLayerSchema,
  project_id: z.string().optional(),
});

export type ComponentKind = z.infer<typeof ComponentKindSchema>;
export type FileLayer = z.infer<typeof FileLayerSchema>;
export type ComponentLayer = z.infer<typeof ComponentLayerSchema>;
export type ComponentEntry = z.infer<typeof ComponentEntrySchema>;
export type ComponentDiagnostic = z.infer<typeof ComponentDiagnosticSchema>;
export type ComponentList = z.infer<typeof ComponentListSchema>;
export type ComponentDocument = z.infer<typeof ComponentDocumentSchema>;
export type ComponentCreate = z.infer<typeof ComponentCreateSchema>;
export type ComponentUpdate = z.infer<typeof ComponentUpdateSchema>;
export type PluginToggle = z.infer<typeof PluginToggleSchema>;
export type PluginEnabled = z.infer<typeof PluginEnabledSchema>;
export type OptionalLocationQuery = z.infer<typeof OptionalLocationQuerySchema>;
export type ComponentLocationQuery = z.infer<typeof ComponentLocationQuerySchema>;
