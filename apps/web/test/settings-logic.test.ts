import { describe, expect, it } from 'vitest';
import { browserLanguage, translate } from '../src/i18n/index.ts';
import { en } from '../src/i18n/en.ts';
import { zhCn } from '../src/i18n/zh-cn.ts';
import { hashOf, parseHash } from '../src/navigation/index.ts';
import { sanitizePreferences } from '../src/preferences/index.ts';
import { checkAttachment } from '../src/composer/index.ts';
import {
  draftOf,
  headerLines,
  needsTrustWarning,
  parseHeaderLines,
  parseModelList,
  parseParameters,
  previewEntry,
  validateComponentForm,
  type ComponentFormValues,
} from '../src/settings/index.ts';

const base: ComponentFormValues = {
  kind: 'skill',
  name: 'haiku',
  layer: 'global',
  description: 'Answer in a haiku.',
  body: 'Answer in one haiku.',
  command: '',
  script: '',
  parameters: '',
  mutating: false,
  acknowledged: false,
};

describe('component form', () => {
  it('a skill becomes front matter with its description and the prompt as body', () => {
    expect(validateComponentForm(base)).toEqual({});
    expect(draftOf(base)).toEqual({
      kind: 'skill',
      name: 'haiku',
      layer: 'global',
      frontMatter: { description: 'Answer in a haiku.' },
      body: 'Answer in one haiku.',
    });
    expect(previewEntry(base)).toBe(
      '---\nversion: 1\nname: haiku\ndescription: Answer in a haiku.\n---\n\nAnswer in one haiku.\n',
    );
  });

  it('a tool gets parameters, its command and the script as an executable file', () => {
    const tool: ComponentFormValues = {
      ...base,
      kind: 'tool',
      name: 'count',
      command: './run.sh',
      script: '#!/bin/sh\nwc -w',
      parameters: 'text*:string:The text.\nunit:string:',
    };
    expect(draftOf(tool)).toMatchObject({
      frontMatter: {
        parameters: [
          { name: 'text', type: 'string', description: 'The text.', required: true },
          { name: 'unit', type: 'string', description: '' },
        ],
        execution: { command: './run.sh' },
      },
      files: [{ path: 'run.sh', content: '#!/bin/sh\nwc -w\n', executable: true }],
    });
    expect(previewEntry(tool)).toContain(
      '  - name: text\n    type: string\n    description: The text.\n    required: true',
    );
  });

  it('reports bad names, missing fields and bad parameter lines', () => {
    expect(validateComponentForm({ ...base, name: 'bad name', description: '' })).toEqual({
      name: 'invalid',
      description: 'required',
    });
    expect(validateComponentForm({ ...base, kind: 'tool', command: '', parameters: 'x:float:' })).toEqual({
      command: 'required',
      parameters: 'invalid',
    });
    expect(() => parseParameters('9-lives:string')).not.toThrow();
  });
});

describe('component form: what the loader accepts and the §1.3 warning', () => {
  it('a plugin’s description goes into the body, never into front matter the loader rejects', () => {
    const plugin: ComponentFormValues = {
      ...base,
      kind: 'plugin',
      name: 'guard',
      description: 'Blocks rm.',
      body: '',
      acknowledged: true,
    };
    const draft = draftOf(plugin);
    expect(draft.frontMatter).toEqual({ display_name: 'guard', enabled: true });
    expect(draft.body).toBe('Blocks rm.');
    expect(previewEntry(plugin)).not.toContain('description:');
  });

  it('a mutating tool writes mutating: true', () => {
    const tool: ComponentFormValues = {
      ...base,
      kind: 'tool',
      name: 'write',
      command: './run.sh',
      mutating: true,
      acknowledged: true,
    };
    expect(draftOf(tool).frontMatter).toMatchObject({ mutating: true });
    expect(previewEntry(tool)).toContain('mutating: true');
  });

  it('creating a plugin or a mutating tool needs the warning confirmed; a read-only tool or an edit does not', () => {
    const tool: ComponentFormValues = { ...base, kind: 'tool', name: 'write', command: './run.sh' };
    expect(needsTrustWarning(tool)).toBe(false);
    expect(validateComponentForm(tool)).toEqual({});
    expect(needsTrustWarning({ ...tool, mutating: true })).toBe(true);
    expect(validateComponentForm({ ...tool, mutating: true })).toEqual({ acknowledged: 'required' });
    expect(validateComponentForm({ ...tool, mutating: true, acknowledged: true })).toEqual({});
    expect(validateComponentForm({ ...base, kind: 'plugin', name: 'guard' })).toEqual({
      acknowledged: 'required',
    });
    expect(validateComponentForm({ ...base, kind: 'plugin', name: 'guard' }, false)).toEqual({});
  });
});

describe('composer limits (spec §8)', () => {
  it('one limit for every file, the server’s: 20 MB unless the server says otherwise', () => {
    const megabytes = (count: number) => count * 1024 * 1024;
    expect(checkAttachment({ name: 'a.png', type: 'image/png', size: megabytes(19) })).toBeUndefined();
    expect(checkAttachment({ name: 'a.pdf', type: 'application/pdf', size: megabytes(19) })).toBeUndefined();
    expect(checkAttachment({ name: 'a.pdf', type: 'application/pdf', size: megabytes(21) })).toEqual({
      kind: 'too-large',
      limit: '20 MB',
    });
    expect(checkAttachment({ name: 'a.png', type: 'image/png', size: megabytes(6) }, megabytes(5))).toEqual({
      kind: 'too-large',
      limit: '5 MB',
    });
  });
});

describe('languages', () => {
  it('Chinese has every English key, and nothing else', () => {
    expect(Object.keys(zhCn).sort()).toEqual(Object.keys(en).sort());
  });

  it('defaults to the browser language', () => {
    expect(browserLanguage(['zh-TW', 'en'])).toBe('zh-CN');
    expect(browserLanguage(['fr-FR', 'en-GB'])).toBe('en');
    expect(browserLanguage(['fr-FR'])).toBe('en');
  });

  it('fills parameters', () => {
    expect(translate('en', 'conversation.thoughtFor', { seconds: 12 })).toBe('Thought for 12 s');
  });
});

describe('small parsers', () => {
  it('navigation ↔ hash', () => {
    expect(parseHash('#/c/abc%20d')).toEqual({ conversationId: 'abc d', settings: undefined });
    expect(parseHash('#/settings/components')).toEqual({ conversationId: undefined, settings: 'components' });
    expect(parseHash('#/settings/an-extension')).toEqual({
      conversationId: undefined,
      settings: 'an-extension',
    });
    expect(parseHash('#/settings/%3Cscript%3E')).toEqual({
      conversationId: undefined,
      settings: 'providers',
    });
    expect(hashOf({ conversationId: 'x', settings: undefined })).toBe('#/c/x');
  });

  it('a custom accent is a #rrggbb colour or nothing', () => {
    expect(sanitizePreferences({ accent: '#0f766e' })).toEqual({ accent: '#0f766e' });
    expect(sanitizePreferences({ accent: 'red; background: url(x)' })).toEqual({});
    expect(sanitizePreferences({ accent: undefined })).toEqual({ accent: undefined });
  });

  it('preferences from anywhere are checked', () => {
    expect(
      sanitizePreferences({ theme: 'dark', fontSize: 99, language: 'fr', sendKey: 'ctrl-enter', extra: 1 }),
    ).toEqual({ theme: 'dark', sendKey: 'ctrl-enter' });
  });

  it('model lists', () => {
    expect(parseModelList('a, b ,\nc, a')).toEqual(['a', 'b', 'c']);
  });
});

describe('provider headers as typed in the form', () => {
  it('one “Name: value” a line, values may hold colons, lines without a name are left out', () => {
    const typed = 'X-Team: docs\nHTTP-Referer: https://example.com:8443/app\n\nnot a header\n: no name';
    expect(parseHeaderLines(typed)).toEqual({
      'X-Team': 'docs',
      'HTTP-Referer': 'https://example.com:8443/app',
    });
    expect(parseHeaderLines(headerLines({ 'X-Team': 'docs' }))).toEqual({ 'X-Team': 'docs' });
    expect(headerLines(undefined)).toBe('');
  });
});
