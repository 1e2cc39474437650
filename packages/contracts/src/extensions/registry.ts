import { z } from 'zod';

/** What a registry entry is (spec §4.1 rule 4). */
export const REGISTRY_KINDS = [
  'tool',
  'command',
  'panel',
  'card',
  'form',
  'workflow',
  'intent',
  'knowledge',
  'prompt',
  'profile_template',
  'document_template',
  'macro',
  'parser',
  'setting',
  'agent_component',
] as const;
export const RegistryKindSchema = z.enum(REGISTRY_KINDS);
export type RegistryKind = z.infer<typeof RegistryKindSchema>;

/**
 * Who provides an entry: `builtin`, `extension:<id>`, `user` (component folders, user MCP servers,
 * macros) or `profile`.
 */
export const RegistrySourceSchema = z.union([
  z.enum(['builtin', 'user', 'profile']),
  z.string().regex(/^extension:[a-z][a-z0-9]*(-[a-z0-9]+)*$/),
]);
export type RegistrySource = z.infer<typeof RegistrySourceSchema>;

/**
 * The source tag of an extension.
 *
 * @example
 * extensionSource('example'); // 'extension:example'
 */
export function extensionSource(extensionId: string): `extension:${string}` {
  return `extension:${extensionId}`;
}

/** One capability in the unified registry: what it is, who provides it, whether it is active. */
export const RegistryEntrySchema = z.object({
  kind: RegistryKindSchema,
  /** The name it is used by (a tool's name, a command without `/`, a panel's id …). */
  name: z.string(),
  source: RegistrySourceSchema,
  /** False when its source is disabled (or it was switched off on its own). */
  active: z.boolean(),
  title: z.string().optional(),
});
export type RegistryEntry = z.infer<typeof RegistryEntrySchema>;

/** `GET /api/registry`: every entry, and each source with whether it is enabled. */
export const RegistryListSchema = z.object({
  entries: z.array(RegistryEntrySchema),
  sources: z.array(
    z.object({ source: RegistrySourceSchema, enabled: z.boolean(), entries: z.number().int() }),
  ),
});
export type RegistryList = z.infer<typeof RegistryListSchema>;

/** `PUT /api/registry/sources/:source`: one switch for everything a source provides. */
export const RegistrySourceSwitchSchema = z.object({ enabled: z.boolean() });
export type RegistrySourceSwitch = z.infer<typeof RegistrySourceSwitchSchema>;
