import type { SettingsRegistry } from '../settings/index.ts';

/** The settings page section of MCP (its server list is rendered beside these settings). */
export const MCP_SETTINGS_SECTION = 'mcp';

/**
 * The MCP client's settings (spec §4.9): whether MCP tools are offered at all (spec §4.1 rule 5:
 * everything can be turned off), how long a session start waits for a server still starting, and
 * how long an unused server keeps running. The servers themselves are `/api/mcp/servers`.
 *
 * @example
 * registerMcpSettings(settingsService.registry);
 */
export function registerMcpSettings(registry: SettingsRegistry): void {
  registry.registerSection({
    id: MCP_SETTINGS_SECTION,
    label: { en: 'MCP servers', 'zh-CN': 'MCP 服务器' },
    order: 70,
    widget: MCP_SETTINGS_SECTION,
  });
  const common = { source: 'builtin' as const, secret: false, section: MCP_SETTINGS_SECTION };
  registry.register({
    ...common,
    key: 'mcp.enabled',
    order: 1,
    schema: { type: 'boolean', default: true },
    effect: 'new-run',
    layers: ['user', 'project'],
    label: { en: 'Offer MCP tools', 'zh-CN': '启用 MCP 工具' },
    help: {
      en: 'Off: conversations run without the tools of any MCP server (their configuration is kept).',
      'zh-CN': '关闭后，会话不使用任何 MCP 服务器的工具（配置保留）。',
    },
  });
  registry.register({
    ...common,
    key: 'mcp.startup_wait_ms',
    order: 2,
    schema: { type: 'integer', minimum: 0, maximum: 120_000, default: 15_000 },
    effect: 'hot',
    layers: ['user'],
    label: { en: 'Wait for a starting server (ms)', 'zh-CN': '等待服务器启动（毫秒）' },
    help: {
      en: 'How long a run waits for an MCP server that is still starting; after that it runs without its tools, which come in a later run.',
      'zh-CN': '运行开始时等待仍在启动的 MCP 服务器的时长；超时则本次不带其工具运行，之后的运行再提供。',
    },
  });
  registry.register({
    ...common,
    key: 'mcp.idle_timeout_minutes',
    order: 3,
    schema: { type: 'integer', minimum: 1, maximum: 1440, default: 10 },
    effect: 'new-run',
    layers: ['user'],
    label: { en: 'Stop unused servers after (minutes)', 'zh-CN': '空闲多久后停止服务器（分钟）' },
    help: {
      en: 'A server no run has used for this long is stopped; the next run that needs it starts it again. A server’s own setting wins.',
      'zh-CN': '超过该时长未被使用的服务器会停止，下次需要时再启动。单个服务器的设置优先。',
    },
  });
}
