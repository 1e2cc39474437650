/**
 * A reusable prompt the user triggers with `/name` (spec §3.4).
 *
 * @example
 * const commit: SkillDefinition = {
 *   name: 'commit',
 *   displayName: 'Commit',
 *   description: 'Write a commit message for the staged changes.',
 *   prompt: 'Read the staged diff and write a conventional commit message.',
 *   requiredTools: [],
 *   allowImplicitInvocation: true,
 * };
 */
export interface SkillDefinition {
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly prompt: string;
  /** Tools the skill needs; the build fails with SKILL_DEPENDENCY_NOT_MET if one is missing. */
  readonly requiredTools: readonly string[];
  /** List the skill in the system prompt so the model can suggest it. It never runs by itself. */
  readonly allowImplicitInvocation: boolean;
  /**
   * The skill's folder (absolute), for skills loaded from one: an invoked skill tells the model,
   * so relative references in its prompt (`scripts/…`, `REFERENCE.md`) resolve there.
   */
  readonly directory?: string;
}
