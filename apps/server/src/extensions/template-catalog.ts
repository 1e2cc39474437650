import {
  extensionSource,
  templateVariables,
  type DocumentTemplateInfo,
  type ProfileTemplate,
} from '@youyou/contracts';
import type { LoadedExtension } from './extension-loader.ts';

/** A document template with its Markdown body (placeholders unfilled). */
export interface DocumentTemplate extends DocumentTemplateInfo {
  body: string;
}

/**
 * The profile templates of the active extensions (spec §4.7), each under `<extension id>/<id>`.
 *
 * @example
 * profileTemplatesOf(host.activeExtensions()); // [{ id: 'example/weather-reporter', source: 'extension:example', profile }]
 */
export function profileTemplatesOf(extensions: readonly LoadedExtension[]): ProfileTemplate[] {
  return extensions.flatMap((extension) =>
    extension.profileTemplates.map((template) => ({
      id: `${extension.manifest.id}/${template.id}`,
      source: extensionSource(extension.manifest.id),
      profile: template.profile,
    })),
  );
}

/**
 * The document templates of the active extensions (spec §4.6 `templates/`), each under
 * `<extension id>/<id>`, with the placeholders their body uses.
 *
 * @example
 * documentTemplatesOf(host.activeExtensions())[0]?.variables; // ['city', 'days']
 */
export function documentTemplatesOf(extensions: readonly LoadedExtension[]): DocumentTemplate[] {
  return extensions.flatMap((extension) =>
    extension.documentTemplates.map((template) => ({
      id: `${extension.manifest.id}/${template.id}`,
      source: extensionSource(extension.manifest.id),
      title: template.title,
      description: template.description,
      format: template.format,
      variables: templateVariables(template.body),
      body: template.body,
    })),
  );
}
