import type { ContentBlock, UserInput } from '../content/index.ts';
import { resolveInput } from '../content/index.ts';
import { AgentError } from '../errors/index.ts';
import type { SkillDefinition } from '../skills/index.ts';
import type { SessionRuntime } from './session-runtime.ts';

export interface PreparedInput {
  content: ContentBlock[];
  skills: { skill: SkillDefinition; arguments: string | undefined }[];
  /** The user's text, for TurnStart and the title. */
  text: string;
}

/**
 * Reads and checks a turn's input before anything is stored or sent: files and images (spec §8),
 * skills (SKILL_NOT_FOUND), and the model's capabilities (MODEL_NOT_SUPPORTED).
 */
export async function prepareInput(input: UserInput, runtime: SessionRuntime): Promise<PreparedInput> {
  const resolved = await resolveInput(input, { cwd: runtime.cwd, allowedRoots: runtime.allowedRoots }).catch(
    (error: unknown) => {
      throw AgentError.fromUnknown(error, 'INVALID_INPUT');
    },
  );
  const skills = resolved.skills.map((requested) => {
    const skill = runtime.skills.get(requested.name);
    if (skill === undefined) {
      const known = [...runtime.skills.keys()].map((name) => `/${name}`).join(', ') || 'none';
      throw new AgentError(
        'SKILL_NOT_FOUND',
        `There is no skill named '/${requested.name}'. Available skills: ${known}.`,
        {
          details: { skill: requested.name },
        },
      );
    }
    return { skill, arguments: requested.arguments };
  });
  const model = runtime.model.model;
  if (resolved.content.some((block) => block.type === 'image') && !model.capabilities.vision) {
    throw new AgentError('MODEL_NOT_SUPPORTED', `Model '${model.id}' does not accept images.`, {
      details: { modelId: model.id, capability: 'vision' },
    });
  }
  if (
    resolved.content.some((block) => block.type === 'file' && block.text === undefined) &&
    model.capabilities.documents !== true
  ) {
    throw new AgentError(
      'MODEL_NOT_SUPPORTED',
      `Model '${model.id}' does not accept binary documents; attach text files instead.`,
      {
        details: { modelId: model.id, capability: 'documents' },
      },
    );
  }
  return { content: resolved.content, skills, text: resolved.text };
}

/**
 * The skill prompt as injected into the turn's context. A skill loaded from a folder names it, so
 * the model resolves the prompt's relative paths there and may read the files it references.
 */
export function skillMessage(skill: SkillDefinition, skillArguments: string | undefined): string {
  const folder = skill.directory === undefined ? '' : ` directory="${skill.directory}"`;
  const note =
    skill.directory === undefined
      ? ''
      : `\n(This skill's files are in ${skill.directory}. Paths in it such as scripts/… or REFERENCE.md are relative to that folder; you may read files there.)`;
  return `<skill name="${skill.name}"${folder}>\n${skill.prompt}${note}\n</skill>${skillArguments === undefined ? '' : `\n${skillArguments}`}`;
}
