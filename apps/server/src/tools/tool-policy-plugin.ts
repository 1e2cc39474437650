import { abort, type Plugin } from '@youyou/agent';
import type { ToolConfirmation } from '@youyou/contracts';
import type { HitlService } from '../hitl/index.ts';
import type { RunBindings } from '../run-bindings/index.ts';
import type { ToolCatalog } from './tool-catalog.ts';
import type { ToolGrantRepository } from './tool-grants.ts';

export const TOOL_POLICY_PLUGIN_ID = 'workbench-tool-policy';

const VALUE_LIMIT = 600;

/** The arguments as lines a person reads: one per field, strings unquoted, long values clipped. */
export function readableArguments(values: Readonly<Record<string, unknown>>): ToolConfirmation['arguments'] {
  return Object.entries(values).map(([name, value]) => {
    const text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? 'null');
    return {
      name,
      value: text.length > VALUE_LIMIT ? `${text.slice(0, VALUE_LIMIT)}… (${text.length} characters)` : text,
    };
  });
}

/**
 * The confirmation policy (spec §4.7, §4.8) as a programmatic plugin on BeforeToolUse, so it sees
 * every call whatever registered the tool (built in, programmatic, component folders, later
 * extensions and MCP): `auto` runs, `deny` aborts with the reason, `confirm` raises a confirm card
 * (tool, description, readable arguments, mutating flag, and which sub-agent asks) and waits —
 * allow once, allow for this conversation (which answers the tool's other waiting cards too), or
 * deny (the model is told why). A failure inside the policy denies the call: it
 * fails closed. Each decision is kept for the call's audit row.
 *
 * @example
 * builder.addPlugin(toolPolicyPlugin({ catalog, bindings, hitl, grants }));
 */
export function toolPolicyPlugin(options: {
  catalog: ToolCatalog;
  bindings: RunBindings;
  hitl: HitlService;
  grants: ToolGrantRepository;
}): Plugin {
  const { catalog, bindings, hitl, grants } = options;
  return {
    id: TOOL_POLICY_PLUGIN_ID,
    displayName: 'Tool confirmation',
    description:
      'Applies each tool’s auto / confirm / deny policy and asks the user on a card before confirmed tools run.',
    apply(hooks) {
      hooks.tap('BeforeToolUse', async ({ sessionId, callId, toolName, arguments: values }) => {
        const binding = bindings.get(sessionId);
        if (binding === undefined) return undefined;
        try {
          const { policy, disabled } = await catalog.policyOf(toolName, binding.conversationId);
          if (policy === 'auto') {
            binding.decisions.set(callId, { policy, decided_by: 'policy', denied: false, card_id: null });
            return undefined;
          }
          if (policy === 'deny') {
            binding.decisions.set(callId, {
              policy,
              decided_by: disabled ? 'settings' : 'policy',
              denied: true,
              card_id: null,
            });
            return abort(
              disabled
                ? `'${toolName}' is disabled in the workbench settings. Do not call it again; tell the user if you need it.`
                : `The workbench's policy for '${toolName}' is deny. Do not call it again; tell the user if you need it.`,
            );
          }
          if (await grants.has(binding.conversationId, toolName)) {
            binding.decisions.set(callId, {
              policy,
              decided_by: 'conversation_grant',
              denied: false,
              card_id: null,
            });
            return undefined;
          }
          const known = catalog.known(toolName);
          const resolution = await hitl.ask(
            binding,
            {
              question: `Allow ${toolName} to run?`,
              kind: 'confirm',
              allowFreeInput: true,
              freeInputHint: 'Or say why not, or what to do instead',
            },
            {
              callId,
              confirmation: {
                tool_name: toolName,
                description: known?.description ?? '',
                mutating: known?.mutating ?? true,
                arguments: readableArguments(values),
                raw_arguments: JSON.stringify(values, null, 2),
                call_id: callId,
              },
            },
          );
          const answer = resolution.answer;
          if (resolution.status === 'answered' && answer?.type === 'confirm' && answer.confirmed) {
            if (answer.scope === 'conversation') {
              // The first card of the tool decided; its twins were answered by it and grant nothing new.
              if (resolution.answered_with_card_id === undefined) {
                await grants.add(binding.conversationId, toolName, resolution.card_id);
                await hitl.answerTwins(binding.conversationId, toolName, resolution.card_id);
              }
            }
            binding.decisions.set(callId, {
              policy,
              decided_by: 'user',
              denied: false,
              card_id: resolution.card_id,
            });
            return undefined;
          }
          binding.decisions.set(callId, {
            policy,
            decided_by: 'user',
            denied: true,
            card_id: resolution.card_id,
          });
          if (resolution.status === 'answered') {
            const reason =
              answer?.type === 'confirm' ? answer.reason : answer?.type === 'text' ? answer.text : undefined;
            return abort(
              `The user denied this call${reason === undefined || reason === '' ? '.' : `: ${reason}`}`,
            );
          }
          return abort(
            resolution.status === 'expired'
              ? `Nobody confirmed the call in time (${resolution.reason ?? 'the card expired'}); it did not run.`
              : resolution.status === 'superseded'
                ? 'The user moved on to another request; the call did not run.'
                : 'The run was cancelled before the user confirmed the call.',
          );
        } catch (error) {
          binding.decisions.set(callId, {
            policy: 'confirm',
            decided_by: 'policy',
            denied: true,
            card_id: null,
          });
          return abort(`The confirmation policy failed (${String(error)}); the call did not run.`);
        }
      });
    },
  };
}
