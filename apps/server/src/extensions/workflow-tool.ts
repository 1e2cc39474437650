import type { ToolContext, ToolHandler, ToolOutput } from '@youyou/agent';
import type {
  FormField,
  HitlCardDraft,
  HitlResolvedPayload,
  IntentSlot,
  PlanStep,
  Workflow,
  WorkflowStep,
} from '@youyou/contracts';
import type { HitlService } from '../hitl/index.ts';
import type { PlanboardRepository } from '../planboard/index.ts';
import type { RunBinding, RunBindings } from '../tools/index.ts';
import { toolError } from './http-tool.ts';
import { fillJson, fillString, type Resolve } from './templates.ts';

/** Steps one workflow may run (loops through `next` included). */
export const WORKFLOW_STEP_LIMIT = 200;

/** What a workflow run needs from the workbench. */
export interface WorkflowServices {
  hitl: HitlService;
  bindings: RunBindings;
  /** A tool the workflow may call (its extension's own, or one it declared), with its policy; undefined: none. */
  tool(
    name: string,
    conversationId: string,
  ): Promise<{ handler: ToolHandler; policy: 'auto' | 'confirm' | 'deny' } | undefined>;
  /** One model completion (the chat model of the conversation). */
  complete(
    text: string,
    context: { conversationId: string; projectId: string | null; signal: AbortSignal },
  ): Promise<string>;
  /** The form fields of one of the extension's forms. */
  formFields(id: string): FormField[] | undefined;
  /** Shows the workflow's steps as the conversation's plan (right column), with their status. */
  planboards?: PlanboardRepository;
  /** The slots of the intents that start this workflow: a required one without a value is asked first. */
  slots(): IntentSlot[];
  /** Whether the workflow is still provided (its extension enabled, the workflow present). */
  live(): Workflow | undefined;
}

/** The tool name a workflow is run by: `workflow_` and its id with `_` for `-`. */
export function workflowToolName(workflowId: string): string {
  return `workflow_${workflowId.replaceAll('-', '_')}`;
}

class StepFailure extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function answerValue(resolution: HitlResolvedPayload, options: { value: string }[]): unknown {
  const answer = resolution.answer;
  if (answer === undefined) return resolution.free_text ?? '';
  if (answer.type === 'choice')
    return options.find((option) => option.value === answer.choice_id)?.value ?? answer.choice_id;
  if (answer.type === 'text') return answer.text;
  if (answer.type === 'form') return answer.values;
  return answer.confirmed;
}

/**
 * Runs a workflow's steps in a conversation's run (spec §4.6): tool steps through the
 * confirmation policy, card steps as HITL cards of the run, prompt steps as a model completion,
 * branches and variables. Every step is reported as it ends (the tool's progress lines and the
 * result list it); the first failing step stops the workflow with a stable code
 * (`WORKFLOW_STEP_FAILED`, `EXTENSION_REMOVED` when the workflow or a tool went away).
 */
export async function runWorkflow(
  services: WorkflowServices,
  binding: RunBinding,
  variables: Record<string, unknown>,
  context: ToolContext,
  callId: string,
): Promise<ToolOutput> {
  const lines: string[] = [];
  let current: Workflow | undefined = services.live();
  if (current === undefined)
    return toolError(
      'EXTENSION_REMOVED',
      'The workflow is no longer available: its extension was removed or disabled.',
    );
  const workflow = current;
  const values: Record<string, unknown> = { ...workflow.variables, ...variables };
  const resolve: Resolve = (reference) =>
    reference.kind === 'argument' ? values[reference.name] : undefined;
  const index = new Map(workflow.steps.map((step, position) => [step.id, position]));
  let position = 0;
  let count = 0;
  const signal = AbortSignal.any([context.signal, context.cancelSignal]);
  // Each step is a step of the conversation's plan, live: pending → in_progress → done (or
  // skipped: a branch went past it, or with a note when it failed).
  const status = new Map<string, { status: PlanStep['status']; note?: string }>(
    workflow.steps.map((step) => [step.id, { status: 'pending' }]),
  );
  const publish = async (explanation: string): Promise<void> => {
    const planboards = services.planboards;
    if (planboards === undefined) return;
    const steps: PlanStep[] = workflow.steps.map((step) => {
      const state = status.get(step.id) ?? { status: 'pending' };
      return {
        id: step.id,
        title: step.title ?? step.id,
        status: state.status,
        ...(state.note === undefined ? {} : { note: state.note }),
      };
    });
    await binding.transact((transaction, insert) =>
      planboards.setPlan(transaction, insert, {
        conversationId: binding.conversationId,
        runId: binding.runId,
        steps,
        explanation: `${workflow.title}: ${explanation}`,
      }),
    );
  };
  // Each step is also the run's current step, in the run's events (run.step): the tracker and
  // the run row show "step 2 of 6: …" while the run's phase stays `acting`.
  const announce = async (
    step: WorkflowStep,
    index: number,
    state: 'running' | 'done' | 'failed',
    code?: string,
  ): Promise<void> => {
    await binding.append([
      {
        run_id: binding.runId,
        type: 'run.step',
        payload: {
          workflow_id: workflow.id,
          workflow_title: workflow.title,
          step_id: step.id,
          title: step.title ?? step.id,
          index,
          count: workflow.steps.length,
          status: state,
          ...(code === undefined ? {} : { code }),
        },
      },
    ]);
  };
  await publish('started');
  try {
    // A missing slot of the intent that started it becomes a HITL question (spec §4.6).
    for (const slot of services.slots()) {
      const present = values[slot.name];
      if (!slot.required || (present !== undefined && present !== null && String(present).trim() !== ''))
        continue;
      const question = `${slot.question.en} / ${slot.question['zh-CN']}`;
      const draft: HitlCardDraft =
        slot.type === 'enum' && (slot.enum ?? []).length > 1
          ? {
              question,
              kind: 'choice',
              choices: (slot.enum ?? []).map((option) => ({
                id: option,
                label: option,
                impact: `${slot.name} = ${option}`,
              })),
            }
          : { question, kind: 'input' };
      const resolution = await services.hitl.ask(binding, draft, { callId: `${callId}:slot:${slot.name}` });
      if (resolution.status !== 'answered')
        throw new StepFailure(
          'WORKFLOW_STEP_FAILED',
          `the question for ${slot.name} was ${resolution.status}`,
        );
      values[slot.name] = answerValue(
        resolution,
        (slot.enum ?? []).map((value) => ({ value })),
      );
      lines.push(`${slot.name}: ${text(values[slot.name])} (asked)`);
    }
    while (position < workflow.steps.length) {
      if (++count > WORKFLOW_STEP_LIMIT)
        throw new StepFailure('WORKFLOW_STEP_LIMIT', `more than ${WORKFLOW_STEP_LIMIT} steps ran`);
      if (signal.aborted) throw new StepFailure('REQUEST_CANCELLED', 'the run was cancelled');
      current = services.live();
      if (current === undefined)
        throw new StepFailure('EXTENSION_REMOVED', 'the workflow was removed while it ran');
      const step = workflow.steps[position] as WorkflowStep;
      const label = step.title ?? step.id;
      let jump: string | undefined = step.next;
      status.set(step.id, { status: 'in_progress' });
      await publish(label);
      await announce(step, count, 'running');
      const outcome = await runStep(step);
      status.set(step.id, { status: 'done' });
      await announce(step, count, 'done');
      lines.push(`${count}. ${label}: ${outcome}`);
      position = jump === undefined ? position + 1 : (index.get(jump) ?? workflow.steps.length);

      async function runStep(step: WorkflowStep): Promise<string> {
        switch (step.type) {
          case 'set':
            values[step.variable] = fillJson(step.value, resolve);
            return `${step.variable} = ${text(values[step.variable])}`;
          case 'branch': {
            const value = fillString(step.on, resolve);
            const target = step.cases[value] ?? step.default;
            if (target !== undefined) jump = target;
            return `'${value}' → ${target ?? 'next'}`;
          }
          case 'tool': {
            const found = await services.tool(step.tool, binding.conversationId);
            if (found === undefined)
              throw new StepFailure('EXTENSION_REMOVED', `the tool '${step.tool}' is not available`);
            if (found.policy === 'deny')
              throw new StepFailure(
                'WORKFLOW_STEP_FAILED',
                `the tool '${step.tool}' is denied by the tool policy`,
              );
            const argumentsObject = fillJson(step.arguments, resolve) as Record<string, unknown>;
            if (found.policy === 'confirm') {
              const resolution = await services.hitl.ask(
                binding,
                { question: `Allow ${step.tool} to run (workflow ${workflow.title})?`, kind: 'confirm' },
                { callId: `${callId}:${step.id}` },
              );
              const answer = resolution.answer;
              if (resolution.status !== 'answered' || answer?.type !== 'confirm' || !answer.confirmed)
                throw new StepFailure('WORKFLOW_STEP_FAILED', `running '${step.tool}' was not allowed`);
            }
            const output = await found.handler.execute(
              { callId: `${callId}:${step.id}`, toolName: step.tool, arguments: argumentsObject },
              context,
            );
            if (output.isError === true) {
              const code = /^Error \[([A-Z_]+)\]/.exec(output.content)?.[1];
              throw new StepFailure(
                code === 'EXTENSION_REMOVED' ? code : 'WORKFLOW_STEP_FAILED',
                output.content,
              );
            }
            if (step.into !== undefined) values[step.into] = output.content;
            return 'done';
          }
          case 'card': {
            const fields = step.form === undefined ? undefined : services.formFields(step.form);
            const options = step.options ?? [];
            const draft: HitlCardDraft =
              fields !== undefined
                ? { question: fillString(step.question, resolve), kind: 'form', fields }
                : options.length > 0
                  ? {
                      question: fillString(step.question, resolve),
                      kind: 'choice',
                      choices: options.map((option) => ({
                        id: option.value,
                        label: option.label,
                        impact: `${workflow.title} goes on with “${option.label}”.`,
                      })),
                    }
                  : { question: fillString(step.question, resolve), kind: 'input' };
            const resolution = await services.hitl.ask(binding, draft, { callId: `${callId}:${step.id}` });
            if (resolution.status !== 'answered')
              throw new StepFailure(
                'WORKFLOW_STEP_FAILED',
                `the card was ${resolution.status}${resolution.reason === undefined ? '' : `: ${resolution.reason}`}`,
              );
            values[step.into] = answerValue(resolution, options);
            return `${step.into} = ${text(values[step.into])}`;
          }
          case 'prompt': {
            const reply = await services.complete(fillString(step.text, resolve), {
              conversationId: binding.conversationId,
              projectId: binding.projectId,
              signal,
            });
            if (step.into !== undefined) values[step.into] = reply;
            return reply;
          }
        }
      }
    }
  } catch (error) {
    const failure =
      error instanceof StepFailure
        ? error
        : new StepFailure('WORKFLOW_STEP_FAILED', error instanceof Error ? error.message : String(error));
    const step = workflow.steps[position];
    lines.push(`${count}. ${step?.title ?? step?.id ?? '?'}: failed`);
    if (step !== undefined) {
      status.set(step.id, { status: 'skipped', note: `failed: ${failure.code}` });
      if (count > 0) await announce(step, count, 'failed', failure.code).catch(() => {});
    }
    // The steps after it never run.
    for (const [id, state] of status) if (state.status === 'pending') status.set(id, { status: 'skipped' });
    await publish(`stopped (${failure.code})`).catch(() => {});
    return toolError(
      failure.code,
      `The workflow '${workflow.id}' stopped at step '${step?.id ?? '?'}': ${failure.message}\n${lines.join('\n')}`,
      {
        step: step?.id,
      },
    );
  }
  for (const [id, state] of status) if (state.status === 'pending') status.set(id, { status: 'skipped' });
  await publish('finished');
  return {
    content: `The workflow '${workflow.title}' finished.\n${lines.join('\n')}`,
    metadata: { variables: values },
  };
}

/**
 * The tool that runs a workflow in a conversation: its parameters are the workflow's variables
 * (a command's parameters, an intent's slots). Calls after the extension went away answer
 * EXTENSION_REMOVED.
 */
export function workflowToolHandler(workflow: Workflow, services: WorkflowServices): ToolHandler {
  const properties = Object.fromEntries(
    Object.entries(workflow.variables).map(([name, value]) => [
      name,
      { type: typeof value === 'number' ? 'number' : 'string' },
    ]),
  );
  return {
    name: workflowToolName(workflow.id),
    description: `Runs the workflow “${workflow.title}”${workflow.description === undefined ? '' : `: ${workflow.description}`}`,
    parameters: { type: 'object', properties },
    mutating: false,
    timeoutMs: 24 * 60 * 60 * 1000,
    execute: async (input, context) => {
      const binding = services.bindings.get(context.sessionId);
      if (binding === undefined)
        return toolError('INVALID_INPUT', 'A workflow runs inside a workbench conversation.');
      return runWorkflow(services, binding, { ...input.arguments }, context, input.callId);
    },
  };
}
