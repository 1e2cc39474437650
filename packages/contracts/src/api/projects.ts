import { z } from 'zod';
import { IsoDateSchema } from '../runs/index.ts';

export const ProjectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    directory: z.string().nullable().meta({ description: 'The agent’s working directory for this project.' }),
    created_at: IsoDateSchema,
    updated_at: IsoDateSchema,
  })
  .meta({ id: 'Project' });

export const ProjectCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    directory: z.string().min(1).max(4096).nullable().optional(),
  })
  .meta({ id: 'ProjectCreate' });

export const ProjectUpdateSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    directory: z.string().min(1).max(4096).nullable().optional(),
  })
  .meta({ id: 'ProjectUpdate' });

export type Project = z.infer<typeof ProjectSchema>;
export type ProjectCreate = z.infer<typeof ProjectCreateSchema>;
export type ProjectUpdate = z.infer<typeof ProjectUpdateSchema>;
