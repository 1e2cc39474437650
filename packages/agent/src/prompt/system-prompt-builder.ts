import os from 'node:os';
import type { Memory } from '../memory/index.ts';
import type { ToolDefinition } from '../provider/index.ts';
import type { SkillDefinition } from '../skills/index.ts';

/** The ten layers of the system prompt, in order (spec §4.3). */
export const PROMPT_LAYERS = [
  'base_instructions',
  'global_instructions',
  'project_instructions',
  'personality',
  'tools',
  'skills',
  'plugins',
  'memories',
  'environment',
  'dynamic',
] as const;

export type PromptLayer = (typeof PROMPT_LAYERS)[number];

export interface PromptSection {
  layer: PromptLayer;
  title: string;
  content: string;
}

/** The assembled prompt and the sections it came from, for inspection (the workbench shows them). */
export interface SystemPrompt {
  text: string;
  sections: readonly PromptSection[];
}

export interface PromptSources {
  baseInstructions?: string;
  globalInstructions?: string;
  projectInstructions?: string;
  soul?: string;
  tools: readonly ToolDefinition[];
  /**
   * False for a model with native tool use: the request's `tools` field carries every name,
   * description and schema, so writing them here too would send them twice (issue 24).
   */
  toolsInPrompt?: boolean;
  /** Skills with `allowImplicitInvocation`. */
  skills: readonly SkillDefinition[];
  plugins: readonly { displayName: string; description: string }[];
  cwd: string;
}

const TITLES: Readonly<Record<PromptLayer, string>> = {
  base_instructions: 'Instructions',
  global_instructions: 'User instructions',
  project_instructions: 'Project instructions',
  personality: 'Personality',
  tools: 'Tools',
  skills: 'Skills the user can invoke',
  plugins: 'Active plugins',
  memories: 'Memories',
  environment: 'Environment',
  dynamic: 'Additional context',
};

/**
 * Builds the system prompt from its layers; a missing or empty layer is skipped (spec §4.3). The
 * layers that cannot change during a session are rendered once.
 */
export class SystemPromptBuilder {
  readonly #fixed: readonly PromptSection[];
  readonly #plugins: PromptSection | undefined;

  constructor(sources: PromptSources) {
    const sections: PromptSection[] = [];
    const add = (layer: PromptLayer, content: string | undefined): void => {
      const trimmed = content?.trim();
      if (trimmed !== undefined && trimmed !== '')
        sections.push({ layer, title: TITLES[layer], content: trimmed });
    };
    add('base_instructions', sources.baseInstructions);
    add('global_instructions', sources.globalInstructions);
    add('project_instructions', sources.projectInstructions);
    add('personality', sources.soul);
    if (sources.toolsInPrompt !== false) add('tools', sources.tools.map(renderTool).join('\n\n'));
    add(
      'skills',
      sources.skills.length === 0
        ? undefined
        : 'The user can run these skills by typing /name. Suggest one when it fits; you cannot run it yourself.\n' +
            sources.skills.map((skill) => `- /${skill.name}: ${skill.description}`).join('\n'),
    );
    this.#fixed = sections;
    const plugins = sources.plugins
      .map((plugin) => `- ${plugin.displayName}: ${plugin.description}`)
      .join('\n');
    this.#plugins =
      plugins === '' ? undefined : { layer: 'plugins', title: TITLES.plugins, content: plugins };
    this.#environment = `Operating system: ${os.type()} ${os.release()} (${process.platform})\nWorking directory: ${sources.cwd}`;
  }

  readonly #environment: string;

  build(options: {
    memories: readonly Memory[];
    dynamicSections: readonly string[];
    now?: Date;
  }): SystemPrompt {
    const sections: PromptSection[] = [...this.#fixed];
    if (this.#plugins !== undefined) sections.push(this.#plugins);
    if (options.memories.length > 0) {
      sections.push({
        layer: 'memories',
        title: TITLES.memories,
        content: options.memories.map((memory) => `- [${memory.id}] ${memory.content}`).join('\n'),
      });
    }
    // The date, not the time: a prompt that changes every minute defeats provider prompt caching.
    const date = (options.now ?? new Date()).toISOString().slice(0, 10);
    sections.push({
      layer: 'environment',
      title: TITLES.environment,
      content: `${this.#environment}\nDate: ${date}`,
    });
    const dynamic = options.dynamicSections
      .map((section) => section.trim())
      .filter((section) => section !== '');
    if (dynamic.length > 0)
      sections.push({ layer: 'dynamic', title: TITLES.dynamic, content: dynamic.join('\n\n') });
    return {
      text: sections.map((section) => `# ${section.title}\n\n${section.content}`).join('\n\n'),
      sections,
    };
  }
}

function renderTool(tool: ToolDefinition): string {
  return `## ${tool.name}\n${tool.description.trim()}\nParameters (JSON Schema): ${JSON.stringify(tool.parameters)}`;
}
