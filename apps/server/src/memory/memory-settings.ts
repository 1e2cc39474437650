import { DEFAULT_MEMORY_SETTINGS, MEMORY_CAPACITY_MAX } from '@youyou/contracts';
import type { SettingsRegistry } from '../settings/index.ts';
import { MEMORY_SETTING_KEYS } from './memory-service.ts';

/** The settings page section of memory (the memory page has the list beside these settings). */
export const MEMORY_SETTINGS_SECTION = 'memory';

/**
 * Memory's settings (spec §4.13, D15): off by default, so nothing is remembered, injected or
 * proposed until the user turns it on; how many memories one request may carry; and whether the
 * lightweight model proposes candidates after a run (each still needs the user’s yes); how many
 * memories a scope keeps (capacity, with eviction of the least recently used).
 *
 * @example
 * registerMemorySettings(settingsService.registry);
 */
export function registerMemorySettings(registry: SettingsRegistry): void {
  registry.registerSection({
    id: MEMORY_SETTINGS_SECTION,
    label: { en: 'Memory', 'zh-CN': '记忆' },
    order: 90,
    widget: MEMORY_SETTINGS_SECTION,
  });
  const common = { source: 'builtin' as const, secret: false, section: MEMORY_SETTINGS_SECTION };
  registry.register({
    ...common,
    key: MEMORY_SETTING_KEYS.enabled,
    order: 1,
    schema: { type: 'boolean', default: false },
    effect: 'new-run',
    layers: ['user', 'project'],
    label: { en: 'Use memory', 'zh-CN': '启用记忆' },
    help: {
      en: 'Off (the default): nothing is remembered, injected into requests or proposed. Stored memories are kept until you delete them.',
      'zh-CN': '关闭（默认）时不记住、不注入、不提议任何记忆。已存的记忆会保留，直到你删除。',
    },
  });
  registry.register({
    ...common,
    key: MEMORY_SETTING_KEYS.max_items,
    order: 2,
    schema: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
    effect: 'new-run',
    layers: ['user', 'project'],
    label: { en: 'Memories per request', 'zh-CN': '每次请求的记忆条数' },
    help: {
      en: 'At most this many memories (most relevant and recent first) go into a request, within the memory share of the context.',
      'zh-CN': '每次请求最多注入这么多条记忆（按相关度与新近度），且不超过上下文中记忆的份额。',
    },
  });
  registry.register({
    ...common,
    key: MEMORY_SETTING_KEYS.propose_candidates,
    order: 3,
    schema: { type: 'boolean', default: true },
    effect: 'hot',
    layers: ['user', 'project'],
    label: { en: 'Propose memories after a reply', 'zh-CN': '回复后提议记忆' },
    help: {
      en: 'The lightweight model may propose something to remember after a reply; it is stored only if you accept the card.',
      'zh-CN': '回复后由轻量模型提议可记住的内容；只有你在卡片上确认后才会保存。',
    },
  });
  registry.register({
    ...common,
    key: MEMORY_SETTING_KEYS.capacity,
    order: 4,
    schema: {
      type: 'integer',
      minimum: 1,
      maximum: MEMORY_CAPACITY_MAX,
      default: DEFAULT_MEMORY_SETTINGS.capacity,
    },
    effect: 'hot',
    layers: ['user', 'project'],
    label: { en: 'Memory capacity', 'zh-CN': '记忆容量上限' },
    help: {
      en: 'The most memories kept for you, and for each project. Writing one more removes the least recently used (expired ones first); the page says which.',
      'zh-CN':
        '你的记忆、以及每个项目的记忆最多保留这么多条。再写入时会删除最久未用的（先删已过期的），页面会告诉你删了哪些。',
    },
  });
}
