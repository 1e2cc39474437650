import type { SettingsSchemaResponse, SettingsSection, UiDocument, UiNode } from '@youyou/contracts';
import { UI_SCHEMA_VERSION } from '@youyou/contracts';

/** The widget that draws one setting (its `key` prop names it). */
export const SETTING_WIDGET = 'setting';

/** The settings centre's pages, in order: the schema's sections that are not inside another page. */
export function settingsPages(schema: SettingsSchemaResponse): SettingsSection[] {
  return schema.sections
    .filter((section) => section.page === undefined)
    .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
}

function settingNodes(schema: SettingsSchemaResponse, sectionId: string): UiNode[] {
  return schema.settings
    .filter((definition) => definition.section === sectionId)
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.key.localeCompare(b.key))
    .map((definition) => ({ component: 'Widget', widget: SETTING_WIDGET, props: { key: definition.key } }));
}

function widgetNodes(section: SettingsSection): UiNode[] {
  return section.widget === undefined ? [] : [{ component: 'Widget', widget: section.widget }];
}

/**
 * One page of the settings centre as a UI document (spec §4.9): the page's widget (its list or
 * editor), its own settings, then each of its sections under its title, with that section's
 * widget and settings — all from the schema, drawn by the one UI-schema renderer. A setting or a
 * section the server registers appears here with no change to the UI.
 *
 * @example
 * settingsPageDocument(schema, 'preferences', 'en');
 * // { version: 1, root: { component: 'Column', children: [{ component: 'Section', title: 'Model routing', … }] } }
 */
export function settingsPageDocument(
  schema: SettingsSchemaResponse,
  pageId: string,
  language: 'en' | 'zh-CN',
): UiDocument {
  const page = schema.sections.find((section) => section.id === pageId && section.page === undefined);
  const children: UiNode[] = [];
  if (page !== undefined) children.push(...widgetNodes(page), ...settingNodes(schema, page.id));
  const sections = schema.sections
    .filter((section) => section.page === pageId)
    .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  for (const section of sections) {
    children.push({
      component: 'Section',
      id: section.id,
      title: section.label[language],
      children: [...widgetNodes(section), ...settingNodes(schema, section.id)],
    });
  }
  return { version: UI_SCHEMA_VERSION, root: { component: 'Column', children } };
}

/** Whether a page holds settings (its own, or in its sections): then it offers the layer choice. */
export function pageHasSettings(schema: SettingsSchemaResponse, pageId: string): boolean {
  const sections = new Set([
    pageId,
    ...schema.sections.filter((section) => section.page === pageId).map((section) => section.id),
  ]);
  return schema.settings.some((definition) => sections.has(definition.section));
}
