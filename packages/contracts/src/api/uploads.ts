import { z } from 'zod';
import { IsoDateSchema } from '../runs/index.ts';

export const UploadSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    media_type: z.string(),
    size: z.number(),
    sha256: z.string(),
    project_id: z.string().nullable(),
    conversation_id: z.string().nullable(),
    created_at: IsoDateSchema,
  })
  .meta({ id: 'Upload' });

export type Upload = z.infer<typeof UploadSchema>;
