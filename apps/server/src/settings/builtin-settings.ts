import {
  contextSharesProblems,
  PROFILE_CONTEXT_SLOTS,
  type ProfileContextSlot,
  type ProfileSlotSetting,
} from '@youyou/contracts';
import type { SettingsSection } from '@youyou/contracts';
import type { SettingsRegistry } from './settings-registry.ts';

const ALL_LAYERS = ['user', 'project', 'conversation'] as const;
const USER_AND_PROJECT = ['user', 'project'] as const;

/** A page of the settings centre drawn by a custom widget of the web's UI-schema renderer, with its settings. */
const widgetPage = (id: string, en: string, zh: string, order: number): SettingsSection => ({
  id,
  label: { en, 'zh-CN': zh },
  order,
  widget: id,
});

/**
 * The settings centre's pages and the sections of the built-in settings, in order (spec §4.9). The
 * web draws its navigation, each page's title and each setting from this list; the pages whose
 * content is a list or an editor (providers, tools …) name the custom widget that draws it. MCP
 * and memory register their own pages beside their settings.
 */
export const BUILTIN_SECTIONS: readonly SettingsSection[] = [
  widgetPage('providers', 'Models', '模型', 10),
  { id: 'preferences', label: { en: 'Preferences', 'zh-CN': '偏好设置' }, order: 20 },
  widgetPage('profiles', 'Profiles', '画像', 30),
  widgetPage('library', 'Commands & snippets', '命令与片段', 40),
  widgetPage('components', 'Components', '组件', 50),
  widgetPage('tools', 'Tools', '工具', 60),
  widgetPage('extensions', 'Extensions', '扩展', 80),
  widgetPage('knowledge', 'Knowledge', '知识库', 100),
  widgetPage('appearance', 'Appearance', '外观', 110),
  widgetPage('behaviour', 'Behaviour', '行为', 120),
  widgetPage('language', 'Language', '语言', 130),
  widgetPage('usage', 'Usage', '用量', 140),
  widgetPage('data', 'Data', '数据', 150),
  widgetPage('setup-bundle', 'Move your setup', '迁移配置', 160),
  { id: 'models', label: { en: 'Model routing', 'zh-CN': '模型路由' }, order: 10, page: 'preferences' },
  { id: 'run', label: { en: 'Run parameters', 'zh-CN': '运行参数' }, order: 20, page: 'preferences' },
  { id: 'budget', label: { en: 'Budgets', 'zh-CN': '预算' }, order: 30, page: 'preferences' },
  { id: 'conversations', label: { en: 'Conversations', 'zh-CN': '会话' }, order: 40, page: 'preferences' },
  { id: 'agent', label: { en: 'Agent', 'zh-CN': '智能体' }, order: 50, page: 'preferences' },
  { id: 'server', label: { en: 'Server', 'zh-CN': '服务器' }, order: 90, page: 'preferences' },
];

/**
 * Registers the workbench's own settings (spec §4.7, §4.9). Agent settings keep their user layer in
 * `~/.youyou/config.yaml` (`configKey`), so the library, the CLI and the UI read one file.
 *
 * @example
 * registerBuiltinSettings(registry);
 */
export function registerBuiltinSettings(registry: SettingsRegistry): void {
  for (const section of BUILTIN_SECTIONS) registry.registerSection(section);
  const builtin = { source: 'builtin' as const, secret: false };

  // Model routing by kind (spec §4.7).
  registry.register({
    ...builtin,
    key: 'models.chat',
    section: 'models',
    order: 1,
    schema: { type: 'string', format: 'model', nullable: true, default: null, maxLength: 200 },
    effect: 'new-run',
    layers: [...USER_AND_PROJECT],
    label: { en: 'Chat model', 'zh-CN': '对话模型' },
    help: {
      en: 'The model conversations use unless they or their profile pick another. Unset: the first configured model.',
      'zh-CN': '会话默认使用的模型（会话或画像另选时除外）。未设置时用第一个已配置的模型。',
    },
  });
  registry.register({
    ...builtin,
    key: 'models.lightweight',
    section: 'models',
    order: 2,
    schema: { type: 'string', format: 'model', nullable: true, default: null, maxLength: 200 },
    effect: 'hot',
    layers: [...USER_AND_PROJECT],
    label: { en: 'Lightweight model', 'zh-CN': '轻量模型' },
    help: {
      en: 'For small tasks: conversation titles, classifying free-form answers to questions, memory candidates. Unset: the chat model.',
      'zh-CN': '用于轻量任务：会话标题、问题卡片自由输入的分类、记忆候选。未设置时使用对话模型。',
    },
  });
  registry.register({
    ...builtin,
    key: 'models.lightweight_fallback',
    section: 'models',
    // Between the lightweight model (2) and its parameters (3): it is about the former.
    order: 2.5,
    schema: { type: 'boolean', default: true },
    effect: 'hot',
    layers: [...USER_AND_PROJECT],
    label: { en: 'Use the chat model for lightweight tasks', 'zh-CN': '轻量任务改用对话模型' },
    help: {
      en: 'With no lightweight model set, titles and the classification of typed answers to cards use the chat model. Turn off for slow local models: titles then take the first line and typed answers are decided by rules alone.',
      'zh-CN':
        '未设置轻量模型时，会话标题与卡片自由输入的分类改用对话模型。本地模型较慢时可关闭：标题取首行，自由输入只按规则判断。',
    },
  });
  registry.register({
    ...builtin,
    key: 'models.intent_gate',
    section: 'models',
    // After the fallback (2.5): another use of the lightweight model.
    order: 2.7,
    schema: { type: 'boolean', default: false },
    effect: 'hot',
    layers: [...USER_AND_PROJECT],
    label: { en: 'Recognise intents with the lightweight model', 'zh-CN': '用轻量模型识别意图' },
    help: {
      en: "Each message that no installed extension's intent rules recognise is shown to the lightweight model with the list of intents, so an intent starts from the user's own words. Off: the rules alone (one model call less per message).",
      'zh-CN':
        '已安装扩展的意图规则未识别的消息，交给轻量模型对照意图清单判断，用户用自己的话即可启动意图。关闭时只按规则判断（每条消息少一次模型调用）。',
    },
  });
  registry.register({
    ...builtin,
    key: 'models.lightweight_parameters',
    section: 'models',
    order: 3,
    schema: {
      type: 'object',
      default: { temperature: 0.2, max_tokens: 60 },
      properties: {
        temperature: { type: 'number', minimum: 0, maximum: 2 },
        max_tokens: { type: 'integer', minimum: 1, maximum: 4096 },
      },
      additionalProperties: false,
    },
    effect: 'hot',
    layers: [...USER_AND_PROJECT],
    label: { en: 'Lightweight model parameters', 'zh-CN': '轻量模型参数' },
    help: {
      en: 'Temperature and token limit of lightweight calls.',
      'zh-CN': '轻量调用的温度与 token 上限。',
    },
  });
  registry.register({
    ...builtin,
    key: 'models.embedding',
    section: 'models',
    order: 4,
    schema: { type: 'string', format: 'model', nullable: true, default: null, maxLength: 200 },
    effect: 'hot',
    layers: [...USER_AND_PROJECT],
    label: { en: 'Embedding model', 'zh-CN': '向量模型' },
    help: {
      en: 'Turns text into vectors for knowledge and memory search (an OpenAI-compatible /embeddings). Unset: vector search is off.',
      'zh-CN': '把文本转为向量，用于知识库与记忆检索（OpenAI 兼容的 /embeddings）。未设置时不做向量检索。',
    },
  });
  registry.register({
    ...builtin,
    key: 'models.embedding_parameters',
    section: 'models',
    order: 5,
    schema: {
      type: 'object',
      default: {},
      properties: { dimensions: { type: 'integer', minimum: 1, maximum: 8192 } },
      additionalProperties: false,
    },
    effect: 'hot',
    layers: [...USER_AND_PROJECT],
    label: { en: 'Embedding parameters', 'zh-CN': '向量模型参数' },
    help: { en: 'For example the vector dimensions.', 'zh-CN': '例如向量维度。' },
  });
  registry.register({
    ...builtin,
    key: 'models.rerank',
    section: 'models',
    order: 6,
    schema: { type: 'string', format: 'model', nullable: true, default: null, maxLength: 200 },
    effect: 'hot',
    layers: [...USER_AND_PROJECT],
    label: { en: 'Rerank model', 'zh-CN': '重排模型' },
    help: {
      en: 'Reorders retrieved passages. Unset: results keep the order of the vector search.',
      'zh-CN': '对检索结果重新排序。未设置时保持向量检索的顺序。',
    },
  });
  registry.register({
    ...builtin,
    key: 'models.rerank_url',
    section: 'models',
    order: 7,
    schema: { type: 'string', nullable: true, default: null, maxLength: 500, pattern: '^https?://' },
    effect: 'hot',
    layers: ['user'],
    label: { en: 'Rerank service URL', 'zh-CN': '重排服务地址' },
    help: {
      en: 'A rerank service of its own (Jina / TEI style POST /rerank) instead of a provider model.',
      'zh-CN': '独立的重排服务（Jina / TEI 风格的 POST /rerank），代替提供方模型。',
    },
  });
  registry.register({
    ...builtin,
    secret: true,
    key: 'models.rerank_api_key',
    section: 'models',
    order: 8,
    schema: { type: 'string', minLength: 1, maxLength: 500 },
    effect: 'hot',
    layers: ['user'],
    label: { en: 'Rerank service key', 'zh-CN': '重排服务密钥' },
    help: {
      en: 'Stored encrypted, never shown again and never exported.',
      'zh-CN': '加密保存，不回显，也不会被导出。',
    },
  });

  // Run parameters (spec §4.7): system → user → project → conversation here; a profile sits above the user's.
  registry.register({
    ...builtin,
    key: 'run.temperature',
    configKey: 'temperature',
    section: 'run',
    order: 1,
    schema: { type: 'number', minimum: 0, maximum: 2, nullable: true, default: null },
    effect: 'new-run',
    layers: [...ALL_LAYERS],
    label: { en: 'Temperature', 'zh-CN': '温度' },
    help: {
      en: 'Higher is more varied, lower more focused. Unset: the model’s default.',
      'zh-CN': '越高越发散，越低越稳定。未设置时用模型默认值。',
    },
  });
  registry.register({
    ...builtin,
    key: 'run.max_tokens',
    configKey: 'max_tokens',
    section: 'run',
    order: 2,
    schema: { type: 'integer', minimum: 1, maximum: 1_000_000, nullable: true, default: null },
    effect: 'new-run',
    layers: [...ALL_LAYERS],
    label: { en: 'Max tokens per reply', 'zh-CN': '单次回复最大 token' },
    help: { en: 'The longest answer one model call may give.', 'zh-CN': '一次模型调用最多生成的 token 数。' },
  });
  registry.register({
    ...builtin,
    key: 'run.reasoning_effort',
    configKey: 'reasoning_effort',
    section: 'run',
    order: 3,
    schema: { type: 'string', enum: ['minimal', 'low', 'medium', 'high'], nullable: true, default: null },
    effect: 'new-run',
    layers: [...ALL_LAYERS],
    label: { en: 'Reasoning effort', 'zh-CN': '推理强度' },
    help: { en: 'How hard a reasoning model thinks.', 'zh-CN': '推理模型的思考程度。' },
  });
  registry.register({
    ...builtin,
    key: 'run.timeout_ms',
    configKey: 'provider_chunk_timeout_ms',
    section: 'run',
    order: 4,
    schema: { type: 'integer', minimum: 1000, maximum: 3_600_000, nullable: true, default: null },
    effect: 'new-run',
    layers: [...ALL_LAYERS],
    label: { en: 'Model timeout (ms)', 'zh-CN': '模型超时（毫秒）' },
    help: {
      en: 'A model that sends nothing for this long fails the call (and is retried). Unset: 60 s between chunks, 120 s for the first.',
      'zh-CN': '模型这么久没有输出即判定失败（并重试）。未设置时首包 120 秒、之后每段 60 秒。',
    },
  });
  registry.register({
    ...builtin,
    key: 'run.retry_budget',
    section: 'run',
    order: 5,
    schema: { type: 'integer', minimum: 0, maximum: 10, nullable: true, default: null },
    effect: 'new-run',
    layers: [...ALL_LAYERS],
    label: { en: 'Retry budget', 'zh-CN': '重试次数' },
    help: {
      en: 'How many times a failed model request is tried again. Unset: the provider’s default (2).',
      'zh-CN': '模型请求失败后重试的次数。未设置时用提供方默认值（2）。',
    },
  });

  // Budgets (spec §4.7): a run past one ends with its stable code.
  const budget = (
    key: string,
    order: number,
    minimum: number,
    label: [string, string],
    help: [string, string],
  ) =>
    registry.register({
      ...builtin,
      key,
      section: 'budget',
      order,
      schema: { type: 'integer', minimum, nullable: true, default: null },
      effect: 'new-run',
      layers: [...ALL_LAYERS],
      label: { en: label[0], 'zh-CN': label[1] },
      help: { en: help[0], 'zh-CN': help[1] },
    });
  budget(
    'budget.max_tokens',
    1,
    1,
    ['Tokens per run', '每次运行 token 上限'],
    [
      'Input and output tokens of all model calls of one run; past it the run ends with BUDGET_TOKENS_EXCEEDED.',
      '一次运行所有模型调用的输入加输出 token；超出即以 BUDGET_TOKENS_EXCEEDED 结束。',
    ],
  );
  budget(
    'budget.max_duration_ms',
    2,
    1000,
    ['Time per run (ms)', '每次运行时长上限（毫秒）'],
    [
      'Wall time of one run; past it the run ends with BUDGET_TIME_EXCEEDED.',
      '一次运行的墙钟时间；超出即以 BUDGET_TIME_EXCEEDED 结束。',
    ],
  );
  budget(
    'budget.max_tool_calls',
    3,
    0,
    ['Tool calls per run', '每次运行工具调用上限'],
    [
      'Tool calls of one run; the next call ends the run with BUDGET_TOOL_CALLS_EXCEEDED.',
      '一次运行的工具调用次数；再调用即以 BUDGET_TOOL_CALLS_EXCEEDED 结束。',
    ],
  );

  // The context slots (spec §4.10: the policy is data, a profile's, and a conversation may override it).
  const slotSchema = {
    type: 'object' as const,
    properties: {
      priority: { type: 'integer' as const, minimum: 0, maximum: 100 },
      share: { type: 'number' as const, minimum: 0, maximum: 1, nullable: true },
    },
    required: ['priority', 'share'],
    additionalProperties: false,
  };
  registry.register({
    ...builtin,
    key: 'context.slots',
    section: 'run',
    order: 10,
    schema: {
      type: 'object',
      nullable: true,
      default: null,
      properties: Object.fromEntries(PROFILE_CONTEXT_SLOTS.map((slot) => [slot, slotSchema])),
      additionalProperties: false,
    },
    effect: 'new-run',
    layers: [...ALL_LAYERS],
    refine: (value) =>
      contextSharesProblems(value as Partial<Record<ProfileContextSlot, ProfileSlotSetting>>).map(
        (problem) => ({ code: 'CONTEXT_SHARES_INVALID' as const, ...problem }),
      ),
    label: { en: 'Context slots', 'zh-CN': '上下文槽位' },
    help: {
      en: 'Per slot (memory, knowledge, history, current_turn, tool_results) its priority (higher is trimmed last) and share of the budget (0–1, null: what is left), for example {"knowledge": {"priority": 4, "share": 0.1}}. Set on a conversation it overrides the profile’s; the shares may add up to 1 at most. Unset: the profile’s, else the defaults.',
      'zh-CN':
        '每个槽位（memory、knowledge、history、current_turn、tool_results）的优先级（越高越晚裁剪）与预算份额（0–1，null 表示余下部分），例如 {"knowledge": {"priority": 4, "share": 0.1}}。设在会话上时覆盖画像的设置；份额之和不超过 1。未设置时用画像的，否则用默认值。',
    },
  });

  // Conversations.
  registry.register({
    ...builtin,
    key: 'titles.mode',
    section: 'conversations',
    order: 1,
    schema: { type: 'string', enum: ['auto', 'model', 'first-line'], default: 'auto' },
    effect: 'hot',
    layers: [...USER_AND_PROJECT],
    label: { en: 'Conversation titles', 'zh-CN': '会话标题' },
    help: {
      en: 'auto: by the lightweight model when one is set, else the first line; model: always by a model (the chat model when no lightweight one is set); first-line: the first line of the first message.',
      'zh-CN':
        'auto：设置了轻量模型时由它生成，否则取首行；model：总由模型生成（未设轻量模型时用对话模型）；first-line：取首条消息的第一行。',
    },
  });
  registry.register({
    ...builtin,
    key: 'profiles.default',
    section: 'conversations',
    order: 2,
    schema: { type: 'string', format: 'profile', default: 'default', minLength: 1, maxLength: 128 },
    effect: 'new-run',
    layers: [...USER_AND_PROJECT],
    label: { en: 'Profile of new conversations', 'zh-CN': '新会话的画像' },
    help: {
      en: 'The agent profile a new conversation starts with; each conversation can switch in its header.',
      'zh-CN': '新会话使用的智能体画像；每个会话可在标题栏切换。',
    },
  });

  // Agent settings: their user layer is ~/.youyou/config.yaml.
  registry.register({
    ...builtin,
    key: 'agent.base_instructions',
    configKey: 'base_instructions',
    section: 'agent',
    order: 1,
    schema: { type: 'string', format: 'multiline', default: '', maxLength: 100_000 },
    effect: 'new-run',
    layers: ['user'],
    label: { en: 'Base instructions', 'zh-CN': '基础指令' },
    help: {
      en: 'The first layer of every system prompt (a profile’s system prompt replaces it). Kept in ~/.youyou/config.yaml.',
      'zh-CN': '每个系统提示词的第一层（画像的系统提示词会替换它）。保存在 ~/.youyou/config.yaml。',
    },
  });
  registry.register({
    ...builtin,
    key: 'agent.tool_timeout_ms',
    configKey: 'tool_timeout_ms',
    section: 'agent',
    order: 2,
    schema: { type: 'integer', minimum: 1, maximum: 3_600_000, default: 120_000 },
    effect: 'new-run',
    layers: ['user'],
    label: { en: 'Tool timeout (ms)', 'zh-CN': '工具超时（毫秒）' },
    help: {
      en: 'A tool call that runs longer fails with TOOL_TIMEOUT.',
      'zh-CN': '工具调用超时即以 TOOL_TIMEOUT 失败。',
    },
  });
  registry.register({
    ...builtin,
    key: 'agent.max_tool_calls_per_turn',
    configKey: 'max_tool_calls_per_turn',
    section: 'agent',
    order: 3,
    schema: { type: 'integer', minimum: 1, maximum: 10_000, default: 50 },
    effect: 'new-run',
    layers: ['user'],
    label: { en: 'Tool calls per turn', 'zh-CN': '每轮工具调用上限' },
    help: {
      en: 'The agent core’s own limit (MAX_TOOL_CALLS_EXCEEDED); budgets can set a lower one per run.',
      'zh-CN': '智能体内核的上限（MAX_TOOL_CALLS_EXCEEDED）；预算可为每次运行设更低的上限。',
    },
  });
  registry.register({
    ...builtin,
    key: 'agent.compact_threshold',
    configKey: 'compact_threshold',
    section: 'agent',
    order: 4,
    schema: { type: 'number', minimum: 0.05, maximum: 1, default: 0.8 },
    effect: 'new-run',
    layers: ['user'],
    label: { en: 'Compaction threshold', 'zh-CN': '压缩阈值' },
    help: {
      en: 'Compact the context when it passes this share of the model’s window.',
      'zh-CN': '上下文超过模型窗口的这一比例时进行压缩。',
    },
  });

  registry.register({
    ...builtin,
    key: 'server.max_upload_mb',
    section: 'server',
    order: 1,
    schema: { type: 'integer', minimum: 1, maximum: 1024, default: 20 },
    effect: 'restart',
    layers: ['user'],
    label: { en: 'Largest upload (MB)', 'zh-CN': '上传文件大小上限（MB）' },
    help: {
      en: 'Read when the server starts (the --max-upload option, when given, wins).',
      'zh-CN': '服务器启动时读取。',
    },
  });
}
