import { z } from 'zod';

export const HealthSchema = z
  .object({
    status: z.literal('ok'),
    ok: z.literal(true),
    version: z.string(),
    database: z.enum(['sqlite', 'postgres']),
    instance_id: z.string(),
    uptime_ms: z.number(),
    active_runs: z.number(),
    /** The largest upload the server takes (the `server.max_upload_mb` setting, or --max-upload). */
    max_upload_bytes: z.number().int().positive().optional(),
  })
  .meta({ id: 'Health' });

/** The UI preferences the server keeps for the user (spec §4.15), as the UI wrote them. */
export const UserPreferencesSchema = z.record(z.string(), z.unknown());

export const PreferencesSchema = z.object({ preferences: UserPreferencesSchema }).meta({ id: 'Preferences' });

export const SettingsSchemaSchema = z
  .object({
    settings: z.array(
      z.object({
        key: z.string(),
        type: z.enum(['string', 'object']),
        default: z.unknown(),
        effect: z.enum(['hot', 'new-run', 'restart']),
        description: z.string(),
      }),
    ),
  })
  .meta({ id: 'SettingsSchema' });

export const SettingsSchema = z.record(z.string(), z.unknown()).meta({ id: 'Settings' });

export const UsageSchema = z
  .object({
    group_by: z.enum(['day', 'model', 'conversation', 'project']),
    totals: z.array(
      z.object({
        key: z.string().nullable(),
        runs: z.number(),
        input_tokens: z.number(),
        output_tokens: z.number(),
        tool_calls: z.number(),
        duration_ms: z.number(),
        cache_read_tokens: z.number().optional(),
        cache_write_tokens: z.number().optional(),
        cost: z.number().nullable().optional().meta({
          description: 'US dollars, from the prices of the models used; null when none has prices.',
        }),
        /** Runs of this group whose model has no prices (their cost is unknown). */
        unpriced_runs: z.number().optional(),
      }),
    ),
  })
  .meta({ id: 'Usage' });

export type Health = z.infer<typeof HealthSchema>;
export type UserPreferences = z.infer<typeof UserPreferencesSchema>;
export type PreferencesBody = z.infer<typeof PreferencesSchema>;
export type SettingsSchemaListing = z.infer<typeof SettingsSchemaSchema>;
export type Settings = z.infer<typeof SettingsSchema>;
export type Usage = z.infer<typeof UsageSchema>;
