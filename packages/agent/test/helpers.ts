import {
  AgentBuilder,
  type Agent,
  type AgentConfig,
  type AgentEvent,
  type ComponentSource,
  type Logger,
  type MemoryStorage,
  type ModelProvider,
  type Plugin,
  type PluginConfig,
  type SessionStorage,
  type SkillDefinition,
  type ToolHandler,
  type Turn,
} from '@youyou/agent';
import { createTempWorkspace, ScriptedProvider, type TempWorkspace } from '@youyou/testing';
import { afterEach } from 'vitest';

export interface TestAgentOptions {
  provider?: ModelProvider;
  providers?: ModelProvider[];
  tools?: ToolHandler[];
  skills?: SkillDefinition[];
  plugins?: (Plugin | { plugin: Plugin; config: PluginConfig })[];
  config?: Partial<AgentConfig>;
  sessionStorage?: SessionStorage;
  memoryStorage?: MemoryStorage;
  sources?: ComponentSource[];
  /** Pass false to build without a cwd (the agent then uses `process.cwd()`). */
  withCwd?: boolean;
  /** A cwd other than the temp workspace's. */
  cwd?: string;
  memoryNamespace?: string;
  /** False builds without the file channel. */
  fileComponents?: boolean;
}

export interface TestAgent {
  agent: Agent;
  provider: ScriptedProvider;
  workspace: TempWorkspace;
  logs: LogLine[];
}

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  data: object;
  message: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A logger that keeps lines for assertions instead of printing them. */
export function memoryLogger(lines: LogLine[] = []): Logger & { lines: LogLine[] } {
  const push = (level: LogLine['level']) => (data: object, message: string) =>
    void lines.push({ level, data, message });
  return { lines, debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}

/** A builder over a temp workspace, cleaned up after the test. */
export async function testBuilder(options: TestAgentOptions = {}): Promise<{
  builder: AgentBuilder;
  provider: ScriptedProvider;
  workspace: TempWorkspace;
  logs: LogLine[];
}> {
  const workspace = await createTempWorkspace();
  cleanups.push(() => workspace.remove());
  const provider = (options.provider as ScriptedProvider | undefined) ?? new ScriptedProvider();
  const logger = memoryLogger();
  const builder = new AgentBuilder({
    home: workspace.home,
    ...(options.withCwd === false ? {} : { cwd: options.cwd ?? workspace.cwd }),
    ...(options.memoryNamespace === undefined ? {} : { memoryNamespace: options.memoryNamespace }),
    ...(options.fileComponents === undefined ? {} : { fileComponents: options.fileComponents }),
  }).setLogger(logger);
  for (const entry of options.providers ?? [provider]) builder.addProvider(entry);
  for (const tool of options.tools ?? []) builder.addTool(tool);
  for (const skill of options.skills ?? []) builder.addSkill(skill);
  for (const entry of options.plugins ?? []) {
    if ('plugin' in entry) builder.addPlugin(entry.plugin, entry.config);
    else builder.addPlugin(entry);
  }
  for (const source of options.sources ?? []) builder.addComponentSource(source);
  if (options.sessionStorage !== undefined) builder.setSessionStorage(options.sessionStorage);
  if (options.memoryStorage !== undefined) builder.setMemoryStorage(options.memoryStorage);
  if (options.config !== undefined) builder.setConfig(options.config);
  return { builder, provider, workspace, logs: logger.lines };
}

/** A built agent over a temp workspace, shut down and cleaned up after the test. */
export async function testAgent(options: TestAgentOptions = {}): Promise<TestAgent> {
  const { builder, provider, workspace, logs } = await testBuilder(options);
  const agent = await builder.build();
  cleanups.push(() => agent.shutdown());
  return { agent, provider, workspace, logs };
}

/** Every event of a turn, in order. */
export async function collect(turn: Turn | AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of turn) events.push(event);
  return events;
}

export function ofType<T extends AgentEvent['type']>(
  events: readonly AgentEvent[],
  type: T,
): Extract<AgentEvent, { type: T }>[] {
  return events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
}

export function textOf(events: readonly AgentEvent[]): string {
  return ofType(events, 'TextDelta')
    .map((event) => event.text)
    .join('');
}

/** A read-only or mutating tool whose behaviour the test supplies. */
export function tool(
  name: string,
  execute: ToolHandler['execute'] = () => ({ content: `${name} ok` }),
  options: { mutating?: boolean; parameters?: Record<string, unknown>; timeoutMs?: number } = {},
): ToolHandler {
  return {
    name,
    description: `The ${name} tool.`,
    parameters: options.parameters ?? { type: 'object', properties: {}, additionalProperties: true },
    mutating: options.mutating ?? false,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    execute,
  };
}

/** Resolves after `ms`. */
export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise with its resolve exposed, for ordering concurrent work in tests. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}
