import type { ChatEvent, ChatRequest, ModelInfo, ModelProvider, Plugin, Usage } from '@youyou/agent';
import { modelLookup } from '../context/index.ts';

/**
 * What the server changes about one run's model calls and tool calls: the tools the model sees
 * (a profile's allow/deny lists), a last check before a tool runs (denied tools the model named
 * anyway, the run's tool-call budget), and the usage of every call (the token budget).
 */
export interface RunShaping {
  toolVisible(toolName: string): boolean;
  /** Undefined lets the call run; a reason blocks it (the model reads the reason). */
  beforeTool(toolName: string): string | undefined;
  onUsage(usage: Usage): void;
  /**
   * Builds the request the model gets from the one the agent core made (context assembly, spec
   * §4.10): slots, budget, trims. Absent: the request goes as it is.
   */
  assemble?(request: ChatRequest, model: ModelInfo | undefined, signal: AbortSignal): Promise<ChatRequest>;
  /**
   * A reply the workbench gives in place of the model (a workflow command drives its run without
   * one); undefined lets the model answer this request.
   */
  respond?(request: ChatRequest): AsyncIterable<ChatEvent> | undefined;
  /** Sections the run adds to the system prompt's "Additional context" (the installed intents' catalog). */
  promptSections?(): string[];
}

/** The run an agent of the pool is executing now (one at a time per agent). */
export interface RunShapingSlot {
  current: RunShaping | undefined;
}

/**
 * A provider that applies the slot's run to each request: tools the run may not use are left out,
 * so the model never sees them; the run's context assembler builds the request from its slots
 * (budget = this model's window − the output reserve); usage is reported as each call ends.
 *
 * @example
 * builder.addProvider(shapedProvider(provider, slot));
 */
export function shapedProvider(provider: ModelProvider, slot: RunShapingSlot): ModelProvider {
  const modelOf = modelLookup(provider);
  return {
    id: provider.id,
    listModels: () => provider.listModels(),
    async *chat(request, options) {
      const shaping = slot.current;
      const visible: ChatRequest =
        shaping === undefined
          ? request
          : { ...request, tools: request.tools.filter((tool) => shaping.toolVisible(tool.name)) };
      const scripted = shaping?.respond?.(visible);
      if (scripted !== undefined) {
        yield* scripted;
        return;
      }
      const shaped =
        shaping?.assemble === undefined
          ? visible
          : await shaping.assemble(visible, await modelOf(visible.model), options.signal);
      for await (const event of provider.chat(shaped, options)) {
        if (event.type === 'done' && event.usage !== undefined) shaping?.onUsage(event.usage);
        yield event;
      }
    },
  };
}

/**
 * The plugin that refuses a tool call the run may not make (BeforeToolUse → abort): a denied tool
 * the model named although it never saw it, or a call past the run's budget; and that adds the
 * run's own sections to the system prompt as its turn starts (TurnStart → dynamic sections).
 */
export function runShapingPlugin(slot: RunShapingSlot): Plugin {
  return {
    id: 'workbench-run-policy',
    displayName: 'Run policy',
    description: 'Blocks tools the profile denies and calls past the run budget.',
    apply(hooks) {
      hooks.tap('BeforeToolUse', (payload) => {
        const reason = slot.current?.beforeTool(payload.toolName);
        return reason === undefined ? undefined : { action: 'abort', reason };
      });
      hooks.tap('TurnStart', (payload) => {
        const sections = slot.current?.promptSections?.() ?? [];
        return sections.length === 0
          ? undefined
          : { action: 'continue_with', data: { dynamicSections: [...payload.dynamicSections, ...sections] } };
      });
    },
  };
}
