// @vitest-environment happy-dom
// The settings centre from the server's schema (spec §4.9): each page is a UI document drawn by the
// one UI-schema renderer, settings included, so a setting registered on the server needs no UI code.
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { SettingDefinition, SettingsSchemaResponse } from '@youyou/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePreferences } from '../src/preferences/index.ts';
import { ServicesProvider } from '../src/services/index.ts';
import { settingsPageDocument, settingsPages } from '../src/settings/settings-document.ts';
import { SettingsPage } from '../src/settings/settings-page.tsx';
import { UiDocumentView } from '../src/ui-schema/index.ts';
import { fakeApi, testServices } from './fake-api.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
beforeEach(() => usePreferences.getState().set({ language: 'en' }));

const text = (en: string) => ({ en, 'zh-CN': en });
function setting(
  key: string,
  section: string,
  schema: SettingDefinition['schema'],
  extra: Partial<SettingDefinition> = {},
): SettingDefinition {
  return {
    key,
    section,
    schema,
    effect: 'hot',
    label: text(`Label of ${key}`),
    help: text(`Help of ${key}`),
    secret: false,
    layers: ['user'],
    source: 'builtin',
    ...extra,
  };
}

const SCHEMA: SettingsSchemaResponse = {
  sections: [
    { id: 'preferences', label: text('Preferences'), order: 20 },
    { id: 'providers', label: text('Models'), order: 10, widget: 'providers' },
    { id: 'run', label: text('Run parameters'), order: 20, page: 'preferences' },
    { id: 'models', label: text('Model routing'), order: 10, page: 'preferences' },
    { id: 'gadget', label: text('Gadget'), order: 30, widget: 'gadget-list' },
  ],
  settings: [
    setting('run.flag', 'run', { type: 'boolean', default: false }),
    setting('run.mode', 'run', { type: 'string', enum: ['fast', 'slow'], default: 'fast' }),
    setting('run.level', 'run', { type: 'integer', minimum: 0, maximum: 9, default: 3 }),
    setting('run.rules', 'run', { type: 'object', default: {} }),
    setting('models.token', 'models', { type: 'string' }, { secret: true }),
    setting('providers.note', 'providers', { type: 'string', default: 'none' }),
    setting('gadget.name', 'gadget', { type: 'string', default: 'g' }),
  ],
};

describe('a settings page as a UI document', () => {
  it('lists the pages in order and draws a page as its widget, its settings, then its sections in order', () => {
    expect(settingsPages(SCHEMA).map((page) => page.id)).toEqual(['providers', 'preferences', 'gadget']);
    expect(settingsPageDocument(SCHEMA, 'providers', 'en').root).toEqual({
      component: 'Column',
      children: [
        { component: 'Widget', widget: 'providers' },
        { component: 'Widget', widget: 'setting', props: { key: 'providers.note' } },
      ],
    });
    const preferences = settingsPageDocument(SCHEMA, 'preferences', 'en').root;
    expect(preferences.component === 'Column' && preferences.children).toEqual([
      {
        component: 'Section',
        id: 'models',
        title: 'Model routing',
        children: [{ component: 'Widget', widget: 'setting', props: { key: 'models.token' } }],
      },
      {
        component: 'Section',
        id: 'run',
        title: 'Run parameters',
        children: ['run.flag', 'run.level', 'run.mode', 'run.rules'].map((key) => ({
          component: 'Widget',
          widget: 'setting',
          props: { key },
        })),
      },
    ]);
  });
});

describe('custom widgets of the UI-schema renderer', () => {
  it('draws a widget the host provides with its props, and a placeholder for one it does not', () => {
    const services = testServices(fakeApi());
    render(
      <QueryClientProvider client={services.queryClient}>
        <ServicesProvider services={services}>
          <UiDocumentView
            schema={{
              version: 1,
              root: {
                component: 'Column',
                children: [
                  { component: 'Widget', widget: 'greeting', props: { name: 'Ada' } },
                  { component: 'Widget', widget: 'unknown-list' },
                ],
              },
            }}
            target={{ kind: 'settings', id: 'p', source: 'builtin' }}
            widgets={{ greeting: ({ props }) => <p>Hello {String(props['name'])}</p> }}
          />
        </ServicesProvider>
      </QueryClientProvider>,
    );
    expect(screen.getByText('Hello Ada')).toBeTruthy();
    expect(
      within(screen.getByTestId('ui-unsupported')).getByText('Not shown: Widget unknown-list'),
    ).toBeTruthy();
  });
});

describe('settings drawn by the renderer', () => {
  function drawPage(pageId: string) {
    const writes: unknown[] = [];
    const services = testServices(
      fakeApi({
        listModels: () => Promise.resolve({ models: [], default_model: null, default_model_id: null }),
        getEffectiveSettings: () =>
          Promise.resolve({
            project_id: null,
            conversation_id: null,
            settings: SCHEMA.settings.map((definition) => ({
              key: definition.key,
              value: definition.schema.default,
              layer: 'system' as const,
              set_at: [],
              secret: definition.secret,
              has_value: false,
              effect: definition.effect,
            })),
          }),
        writeSettings: (write) => {
          writes.push(write);
          return Promise.resolve({ changed: [], settings: [] });
        },
      }),
    );
    render(
      <QueryClientProvider client={services.queryClient}>
        <ServicesProvider services={services}>
          <SettingsPage schema={SCHEMA} pageId={pageId} />
        </ServicesProvider>
      </QueryClientProvider>,
    );
    return writes;
  }

  it('each type gets its form field, and a change is written at the chosen layer with the schema’s own value', async () => {
    const writes = drawPage('preferences');
    expect(screen.getByRole('heading', { name: 'Preferences' })).toBeTruthy();
    expect(screen.getByText('Run parameters').tagName).toBe('H4');
    const flag = screen.getByLabelText('Label of run.flag');
    expect((flag as HTMLInputElement).type).toBe('checkbox');
    const token = screen.getByLabelText('Label of models.token');
    expect((token as HTMLInputElement).type).toBe('password');
    const level = screen.getByLabelText('Label of run.level');
    expect((level as HTMLInputElement).type).toBe('number');
    expect(screen.getByText(/Help of run\.level \(0 – 9\)/)).toBeTruthy();
    expect(screen.getByLabelText('Label of run.rules').tagName).toBe('TEXTAREA');
    await waitFor(() =>
      expect((screen.getByLabelText('Label of run.mode') as HTMLSelectElement).value).toBe('fast'),
    );
    fireEvent.click(flag);
    fireEvent.change(screen.getByLabelText('Label of run.mode'), { target: { value: 'slow' } });
    fireEvent.change(level, { target: { value: '7' } });
    fireEvent.blur(level);
    fireEvent.change(screen.getByLabelText('Label of run.rules'), { target: { value: '{"a": 1}' } });
    fireEvent.blur(screen.getByLabelText('Label of run.rules'));
    await waitFor(() => expect(writes).toHaveLength(4));
    expect(writes).toEqual([
      { layer: 'user', values: { 'run.flag': true } },
      { layer: 'user', values: { 'run.mode': 'slow' } },
      { layer: 'user', values: { 'run.level': 7 } },
      { layer: 'user', values: { 'run.rules': { a: 1 } } },
    ]);
  });

  it('JSON that does not parse is an error under its field, and nothing is written', async () => {
    const writes = drawPage('preferences');
    const rules = screen.getByLabelText('Label of run.rules');
    fireEvent.change(rules, { target: { value: '{nope' } });
    fireEvent.blur(rules);
    await screen.findByText('This is not valid JSON.');
    expect(writes).toEqual([]);
  });

  it('a page whose widget this UI does not have still draws its title and its settings', async () => {
    const writes = drawPage('gadget');
    expect(screen.getByRole('heading', { name: 'Gadget' })).toBeTruthy();
    expect(screen.getByText('Not shown: Widget gadget-list')).toBeTruthy();
    const name = screen.getByLabelText('Label of gadget.name');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('g'));
    fireEvent.change(name, { target: { value: 'gizmo' } });
    fireEvent.keyDown(name, { key: 'Enter' });
    await waitFor(() => expect(writes).toEqual([{ layer: 'user', values: { 'gadget.name': 'gizmo' } }]));
  });
});
