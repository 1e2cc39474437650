import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  apiVersionSupported,
  DeclarativeHttpToolSchema,
  EXTENSION_AUTHOR_SCHEMAS,
  extensionAuthorSchemas,
  ExtensionManifestSchema,
  IntentSchema,
  jsonSchemas,
  WorkflowSchema,
} from '../src/index.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat('uri', true);
const published = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../schemas/${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const validators = new Map<string, ReturnType<typeof ajv.compile>>();
const validatorOf = (file: string) => {
  let validate = validators.get(file);
  if (validate === undefined) validators.set(file, (validate = ajv.compile(published(file))));
  return validate;
};

const manifest = {
  id: 'city-tools',
  version: '1.2.0',
  apiVersion: '1.0.0',
  name: { en: 'City tools', 'zh-CN': '城市工具' },
  description: { en: 'Weather and reports', 'zh-CN': '天气与报告' },
  provides: {
    tools: ['tools/weather.json'],
    knowledge: [{ id: 'guide', title: 'Guide', path: 'knowledge' }],
  },
  requires: { network: { domains: ['api.example.com', '*.example.org'] } },
  settings: [
    {
      key: 'api_key',
      label: { en: 'API key', 'zh-CN': 'API 密钥' },
      help: { en: 'The key', 'zh-CN': '密钥' },
      schema: { type: 'string' },
      secret: true,
    },
  ],
};

describe('extension author schemas', () => {
  it('the published schema files are exactly what the zod contract generates', () => {
    for (const [file, schema] of Object.entries(extensionAuthorSchemas())) {
      expect(published(file), `${file} is stale: run scripts/write-extension-schemas.ts`).toEqual(
        JSON.parse(JSON.stringify(schema)),
      );
    }
  });

  it('a manifest the zod schema accepts passes the published JSON Schema, and the same mistakes fail both', () => {
    const validate = validatorOf('extension.schema.json');
    expect(ExtensionManifestSchema.safeParse(manifest).success).toBe(true);
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);
    const broken = [
      { ...manifest, id: 'City Tools' },
      { ...manifest, version: 'one' },
      { ...manifest, unknown_field: true },
      { ...manifest, provides: { tools: ['../outside.json'] } },
      { ...manifest, requires: { network: { domains: ['https://api.example.com'] } } },
    ];
    for (const value of broken) {
      expect(ExtensionManifestSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
      expect(validate(value), JSON.stringify(value)).toBe(false);
    }
  });

  it('a declarative HTTP tool, a workflow and an intent validate the same in zod and JSON Schema', () => {
    const tool = {
      name: 'city_weather',
      description: 'Weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      request: {
        method: 'GET',
        url: 'https://api.example.com/w?c={{city}}',
        headers: { 'x-key': '{{secret:api_key}}' },
      },
      response: { select: '$.current' },
    };
    const workflow = {
      id: 'report',
      title: 'Report',
      steps: [
        {
          id: 'ask',
          type: 'card',
          question: 'Short or long?',
          options: [{ value: 'short', label: 'Short' }],
          into: 'length',
        },
        { id: 'pick', type: 'branch', on: '{{length}}', cases: { short: 'done' } },
        { id: 'call', type: 'tool', tool: 'city_weather', arguments: { city: '{{city}}' }, into: 'weather' },
        { id: 'done', type: 'set', variable: 'finished', value: true },
      ],
    };
    const intent = {
      id: 'weather',
      title: 'Weather',
      keywords: ['weather'],
      workflow: 'report',
      slots: [{ name: 'city', question: { en: 'Which city?', 'zh-CN': '哪个城市？' } }],
    };
    const cases: [string, { safeParse(value: unknown): { success: boolean } }, Record<string, unknown>][] = [
      ['http-tool.schema.json', DeclarativeHttpToolSchema, tool],
      ['workflow.schema.json', WorkflowSchema, workflow],
      ['intent.schema.json', IntentSchema, intent],
    ];
    for (const [file, schema, value] of cases) {
      const validate = validatorOf(file);
      expect(schema.safeParse(value).success, file).toBe(true);
      expect(validate(value), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const badStep = { ...workflow, steps: [{ id: 'x', type: 'teleport' }] };
    expect(WorkflowSchema.safeParse(badStep).success).toBe(false);
    expect(validatorOf('workflow.schema.json')(badStep)).toBe(false);
    const badTool = { ...tool, request: { ...tool.request, method: 'TRACE' } };
    expect(DeclarativeHttpToolSchema.safeParse(badTool).success).toBe(false);
    expect(validatorOf('http-tool.schema.json')(badTool)).toBe(false);
  });

  it('an intent needs keywords or examples and exactly one target (checked in zod)', () => {
    const base = { id: 'w', title: 'W', slots: [] };
    expect(IntentSchema.safeParse({ ...base, workflow: 'x' }).success).toBe(false);
    expect(IntentSchema.safeParse({ ...base, keywords: ['w'] }).success).toBe(false);
    expect(IntentSchema.safeParse({ ...base, keywords: ['w'], workflow: 'x', command: 'y' }).success).toBe(
      false,
    );
  });

  it('every author schema is also in the contract-wide JSON Schema set', () => {
    expect(Object.keys(EXTENSION_AUTHOR_SCHEMAS)).toHaveLength(7);
    expect(Object.keys(jsonSchemas())).toEqual(
      expect.arrayContaining([
        'ExtensionManifest',
        'DeclarativeHttpTool',
        'Workflow',
        'Intent',
        'ExtensionParser',
        'RegistryList',
      ]),
    );
  });
});

describe('the extension API compatibility window', () => {
  it('loads an extension written for the same major and an older or equal minor, nothing else', () => {
    expect(apiVersionSupported('1.0.0', '1.3.0')).toBe(true);
    expect(apiVersionSupported('1.3.9', '1.3.0')).toBe(true);
    expect(apiVersionSupported('1.4.0', '1.3.0')).toBe(false);
    expect(apiVersionSupported('2.0.0', '1.3.0')).toBe(false);
    expect(apiVersionSupported('0.9.0', '1.0.0')).toBe(false);
    expect(apiVersionSupported('0.2.1', '0.2.0')).toBe(true);
    expect(apiVersionSupported('0.1.0', '0.2.0')).toBe(false);
    expect(apiVersionSupported('latest')).toBe(false);
  });
});
