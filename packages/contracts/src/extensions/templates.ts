import { z } from 'zod';
import { ProfileInputSchema } from '../profiles/index.ts';

/** The formats a document template makes: a Markdown artifact, or a Word file written from it. */
export const DOCUMENT_TEMPLATE_FORMATS = ['markdown', 'docx'] as const;

/**
 * The front matter of a document template (`templates/*.md` of an extension): what it is called,
 * what it is for, and the format of what it makes. The body is Markdown with `{{name}}`
 * placeholders; the agent gives their values.
 *
 * @example
 * DocumentTemplateFrontMatterSchema.parse({ title: 'Trip report', format: 'docx' });
 */
export const DocumentTemplateFrontMatterSchema = z
  .object({
    title: z.string().min(1).max(200).optional(),
    description: z.string().max(1000).optional(),
    format: z.enum(DOCUMENT_TEMPLATE_FORMATS).default('markdown'),
  })
  .strict();

/**
 * An installed document template, as `GET /api/document-templates` lists it: `id` is
 * `<extension id>/<file name without .md>`.
 */
export const DocumentTemplateInfoSchema = z.object({
  id: z.string(),
  source: z.string(),
  title: z.string(),
  description: z.string(),
  format: z.enum(DOCUMENT_TEMPLATE_FORMATS),
  /** The placeholders of its body, in order of first use. */
  variables: z.array(z.string()),
});
export type DocumentTemplateInfo = z.infer<typeof DocumentTemplateInfoSchema>;

/**
 * An installed profile template (spec §4.7: an extension registers profile templates, the user
 * fine-tunes a profile made from one): `id` is `<extension id>/<file name without .json>`.
 *
 * @example
 * const { templates } = await (await fetch('/api/profile-templates')).json();
 */
export const ProfileTemplateSchema = z.object({
  id: z.string(),
  source: z.string(),
  profile: ProfileInputSchema,
});
export type ProfileTemplate = z.infer<typeof ProfileTemplateSchema>;

/** `POST /api/profiles/from-template`: a new profile from a template, with an optional other name. */
export const ProfileFromTemplateRequestSchema = z.object({
  template_id: z.string().min(1).max(200),
  name: z.string().trim().min(1).max(80).optional(),
});
export type ProfileFromTemplateRequest = z.infer<typeof ProfileFromTemplateRequestSchema>;
