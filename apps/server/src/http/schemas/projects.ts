import { z } from '@hono/zod-openapi';
import { ISODate } from './common.ts';

export const ProjectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    directory: z
      .string()
      .nullable()
      .openapi({ description: 'The agent’s working directory for this project.' }),
    created_at: ISODate,
    updated_at: ISODate,
  })
  .openapi('Project');

export const ProjectCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    directory: z.string().min(1).max(4096).nullable().optional(),
  })
  .openapi('ProjectCreate');

export const ProjectUpdateSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    directory: z.string().min(1).max(4096).nullable().optional(),
  })
  .openapi('ProjectUpdate');
