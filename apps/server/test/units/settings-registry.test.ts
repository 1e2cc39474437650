import { describe, expect, it } from 'vitest';
import { registerMcpSettings } from '../../src/mcp/index.ts';
import { registerMemorySettings } from '../../src/memory/index.ts';
import { registerBuiltinSettings, SettingsRegistry } from '../../src/settings/index.ts';

describe('the settings registry', () => {
  it('every built-in setting has a default its own schema accepts (they are compiled only when first checked)', () => {
    const registry = new SettingsRegistry();
    registerBuiltinSettings(registry);
    registerMcpSettings(registry);
    registerMemorySettings(registry);
    const settings = registry.list();
    expect(settings.length).toBeGreaterThan(20);
    for (const { definition } of settings) {
      if (definition.schema.default === undefined) continue;
      expect(() => registry.check(definition.key, definition.schema.default), definition.key).not.toThrow();
    }
  });

  it('a built-in setting still rejects a value its schema does not allow', () => {
    const registry = new SettingsRegistry();
    registerBuiltinSettings(registry);
    expect(() => registry.check('server.max_upload_mb', 'lots')).toThrow(/server\.max_upload_mb/);
  });

  it('an extension setting whose default its schema rejects fails at registration', () => {
    const registry = new SettingsRegistry();
    expect(() =>
      registry.register({
        key: 'example.greeting',
        section: 'example',
        source: 'extension',
        source_id: 'example',
        schema: { type: 'string', default: 'far too long a greeting', maxLength: 5 },
        effect: 'hot',
        secret: false,
        layers: ['user'],
        label: { en: 'Greeting', 'zh-CN': '问候语' },
        help: { en: 'What the example says.', 'zh-CN': '示例说的话。' },
      }),
    ).toThrow(/does not match its own schema/);
  });
});
