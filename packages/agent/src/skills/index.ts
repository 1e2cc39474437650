export type { SkillDefinition } from './skill-definition.ts';
export { parseSkillInvocation, unescapeSlash } from './skill-invocation.ts';
export type { SkillInvocation } from './skill-invocation.ts';
