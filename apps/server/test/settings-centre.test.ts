// The settings centre is drawn from the settings schema alone (spec §4.9, issue 27): its pages, their
// order, the custom widget each page's list is drawn with, and every setting — so a setting the
// server registers, in any kind of section, appears and is stored with no front-end code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EffectiveSettingsResponse, SettingsSchemaResponse, SettingsSection } from '@youyou/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** The pages of the settings centre, in the order the navigation lists them. */
const PAGES = [
  'providers',
  'preferences',
  'profiles',
  'library',
  'components',
  'tools',
  'mcp',
  'extensions',
  'memory',
  'knowledge',
  'appearance',
  'behaviour',
  'language',
  'usage',
  'data',
  'setup-bundle',
];

const pagesOf = (schema: SettingsSchemaResponse): SettingsSection[] =>
  schema.sections.filter((section) => section.page === undefined);

const root = join(import.meta.dirname, '..', '..', '..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

/**
 * "Settings → A → B" pointers in a text, as their segments: a capitalised word, or an emphasised
 * name (`*Example: city weather*`) when it has spaces or punctuation.
 */
function pointers(text: string): string[][] {
  return [...text.matchAll(/Settings((?: → (?:\*[^*\n]+\*|[A-Z]\w+))+)/g)].map((match) =>
    (match[1] ?? '')
      .split(' → ')
      .map((segment) => segment.replaceAll('*', '').trim())
      .filter((segment) => segment !== ''),
  );
}

describe.each(DATABASE_KINDS)('the settings centre from the schema (%s)', (kind) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startTestServer({ database });
  });
  afterAll(async () => {
    await server.close();
    await database.drop();
  });

  it('every page of the settings centre is a section of the schema, in order, naming the widget that draws its list', async () => {
    const schema = await server.call<SettingsSchemaResponse>('GET', '/api/settings/schema');
    const pages = pagesOf(schema);
    expect(pages.map((page) => page.id)).toEqual(PAGES);
    for (const page of pages) {
      expect(page.widget).toBe(page.id === 'preferences' ? undefined : page.id);
      expect(page.label.en).not.toBe('');
      expect(page.label['zh-CN']).not.toBe('');
    }
    // The built-in settings' own sections are drawn inside Preferences.
    const inPreferences = schema.sections.filter((section) => section.page === 'preferences');
    expect(inPreferences.map((section) => section.id)).toEqual([
      'models',
      'run',
      'budget',
      'conversations',
      'agent',
      'server',
    ]);
    // Every setting is in a section that is drawn.
    const drawn = new Set(schema.sections.map((section) => section.id));
    expect(schema.settings.filter((setting) => !drawn.has(setting.section))).toEqual([]);
  });

  it('a setting added on the server alone appears in its section of every section kind, and is stored and read back', async () => {
    const { registry } = server.server.services.settingsService;
    // A page of its own the server adds, with no widget and no page to sit in.
    registry.registerSection({
      id: 'centre-page',
      label: { en: 'Centre page', 'zh-CN': '测试页' },
      order: 500,
    });
    const sections = [
      ...PAGES, // a page drawn by a widget, and Preferences (no widget)
      'run', // a section inside a page
      'centre-new', // a section nobody declared: it is drawn inside Preferences
      'centre-page', // the new page
    ];
    for (const section of sections) {
      registry.register({
        key: `centre.${section.replace('-', '_')}`,
        section,
        source: 'builtin',
        secret: false,
        effect: 'hot',
        layers: ['user'],
        schema: { type: 'string', default: 'unset', maxLength: 40 },
        label: { en: `Test setting of ${section}`, 'zh-CN': `${section} 的测试设置` },
        help: { en: 'Registered by the test only.', 'zh-CN': '仅由测试注册。' },
      });
    }
    const schema = await server.call<SettingsSchemaResponse>('GET', '/api/settings/schema');
    expect(pagesOf(schema).map((page) => page.id)).toEqual([...PAGES, 'centre-page']);
    expect(schema.sections.find((section) => section.id === 'centre-new')).toMatchObject({
      page: 'preferences',
      label: { en: 'Centre new' },
    });
    for (const section of sections) {
      const key = `centre.${section.replace('-', '_')}`;
      expect(schema.settings.find((setting) => setting.key === key)?.section).toBe(section);
      await server.call('PUT', '/api/settings/values', {
        layer: 'user',
        values: { [key]: `saved ${section}` },
      });
    }
    const effective = await server.call<EffectiveSettingsResponse>('GET', '/api/settings/effective');
    for (const section of sections) {
      const key = `centre.${section.replace('-', '_')}`;
      expect(effective.settings.find((setting) => setting.key === key)).toMatchObject({
        value: `saved ${section}`,
        layer: 'user',
      });
    }
    // What the schema refuses is refused here too, whatever the section.
    const refused = await server.request('PUT', '/api/settings/values', {
      body: { layer: 'user', values: { 'centre.tools': 'x'.repeat(41) } },
    });
    expect(refused.status).toBe(400);
  });

  it('a section that names a page nobody registered is drawn as a page of its own', async () => {
    const { registry } = server.server.services.settingsService;
    registry.registerSection({
      id: 'centre-orphan',
      label: { en: 'Orphan', 'zh-CN': '孤立' },
      order: 900,
      page: 'no-such-page',
      widget: 'centre-widget',
    });
    const schema = await server.call<SettingsSchemaResponse>('GET', '/api/settings/schema');
    expect(pagesOf(schema).find((page) => page.id === 'centre-orphan')).toEqual({
      id: 'centre-orphan',
      label: { en: 'Orphan', 'zh-CN': '孤立' },
      order: 900,
      widget: 'centre-widget',
    });
  });

  it('every "Settings → …" pointer of the docs, the web README and the example extension names a page that exists', async () => {
    const schema = await server.call<SettingsSchemaResponse>('GET', '/api/settings/schema');
    const labels = pagesOf(schema)
      .filter((page) => PAGES.includes(page.id))
      .map((page) => page.label.en);
    const texts = {
      panel: read('extensions/example/panels/weather-panel.json'),
      readme: read('extensions/example/README.md'),
      guide: read('docs/extensions.md'),
    };
    for (const text of Object.values(texts)) {
      expect(pointers(text).length).toBeGreaterThan(0);
      for (const segments of pointers(text)) expect(labels).toContain(segments[0]);
    }
    // The host registers an extension's settings as a Preferences section labelled with its name.
    const manifest = JSON.parse(read('extensions/example/extension.json')) as { name: { en: string } };
    for (const text of [texts.panel, texts.readme]) {
      expect(pointers(text)).toContainEqual(['Preferences', manifest.name.en]);
    }
    // The web README's Settings row names every page.
    const settingsRow = read('apps/web/README.md')
      .split('\n')
      .find((line) => line.startsWith('| **Settings** |'));
    expect(labels.filter((label) => !(settingsRow ?? '').includes(label))).toEqual([]);
  });
});
