import { z } from 'zod';
import { JsonTemplateSchema } from './http-tool.ts';

/** A step's or variable's id. */
export const WORKFLOW_ID_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;
const StepId = z.string().regex(WORKFLOW_ID_PATTERN);
const VariableName = z.string().regex(/^[A-Za-z_][\w]{0,63}$/);

/** What every step has: an id, an optional title for the run phase, and the step after it. */
const StepBase = {
  id: StepId,
  /** The phase's label in the run (defaults to the id). */
  title: z.string().max(200).optional(),
  /** The step that follows; absent: the next one in the list (or the end). */
  next: StepId.optional(),
};

/** Sends `text` (a template over the variables) to the model as a turn; its reply goes `into`. */
export const WorkflowPromptStepSchema = z
  .object({
    ...StepBase,
    type: z.literal('prompt'),
    text: z.string().min(1).max(50_000),
    into: VariableName.optional(),
  })
  .strict();

/** Calls a tool (the extension's or any enabled one) through the confirmation policy. */
export const WorkflowToolStepSchema = z
  .object({
    ...StepBase,
    type: z.literal('tool'),
    tool: z.string().min(1).max(128),
    arguments: z.record(z.string(), JsonTemplateSchema).default({}),
    into: VariableName.optional(),
  })
  .strict();

/**
 * Asks the user with a HITL card: a question with options (the answer's value goes `into`), or
 * one of the extension's forms (`form`, its field values go `into` as an object).
 */
export const WorkflowCardStepSchema = z
  .object({
    ...StepBase,
    type: z.literal('card'),
    question: z.string().min(1).max(2000),
    options: z
      .array(z.object({ value: z.string().min(1).max(200), label: z.string().min(1).max(200) }).strict())
      .max(10)
      .optional(),
    form: z.string().max(128).optional(),
    into: VariableName,
  })
  .strict();

/** Goes to `cases[value]` (the template `on` filled in), else `default`, else on. */
export const WorkflowBranchStepSchema = z
  .object({
    ...StepBase,
    type: z.literal('branch'),
    on: z.string().min(1).max(500),
    cases: z.record(z.string(), StepId),
    default: StepId.optional(),
  })
  .strict();

/** Sets a variable to a value (strings are templates over the variables). */
export const WorkflowSetStepSchema = z
  .object({ ...StepBase, type: z.literal('set'), variable: VariableName, value: JsonTemplateSchema })
  .strict();

export const WorkflowStepSchema = z.discriminatedUnion('type', [
  WorkflowPromptStepSchema,
  WorkflowToolStepSchema,
  WorkflowCardStepSchema,
  WorkflowBranchStepSchema,
  WorkflowSetStepSchema,
]);
export type WorkflowStep = z.infer<typeof WorkflowStepSchema>;

/**
 * A declarative workflow (spec §4.6), `workflows/*.json` of an extension: steps run in order (or
 * as `next`/`branch` say), each one a phase of the run; a failing step stops the workflow with a
 * stable code (`WORKFLOW_STEP_FAILED`, `EXTENSION_REMOVED`, …). Started by a command (`/name`,
 * whose parameters become variables) or an intent (whose slots do).
 *
 * @example
 * const report: Workflow = { id: 'city-report', title: 'City report', variables: {}, steps: [
 *   { id: 'weather', type: 'tool', tool: 'example_weather', arguments: { city: '{{city}}' }, into: 'weather' },
 *   { id: 'write', type: 'prompt', text: 'Write a short report: {{weather}}' },
 * ] };
 */
export const WorkflowSchema = z
  .object({
    $schema: z.string().optional(),
    id: StepId,
    title: z.string().min(1).max(200),
    description: z.string().max(2000).optional(),
    /** Starting values of variables (a command's parameters and an intent's slots are added). */
    variables: z.record(VariableName, z.unknown()).default({}),
    /** At most 200 steps run in one workflow (loops through `next` included). */
    steps: z.array(WorkflowStepSchema).min(1).max(100),
  })
  .strict();
export type Workflow = z.infer<typeof WorkflowSchema>;

/** The stable codes a workflow ends with. */
export const WORKFLOW_ERROR_CODES = [
  'WORKFLOW_STEP_FAILED',
  'WORKFLOW_NOT_FOUND',
  'WORKFLOW_STEP_LIMIT',
  'EXTENSION_REMOVED',
] as const;
export type WorkflowErrorCode = (typeof WORKFLOW_ERROR_CODES)[number];
