import type { ChatEvent, ChatRequest } from '@youyou/agent';

/** A `/` command bound to an extension's workflow, as the run starts it: its tool and arguments. */
export interface WorkflowCommandCall {
  toolName: string;
  arguments: Record<string, unknown>;
}

/**
 * The replies a run started by a workflow command gets instead of the model's (spec §4.6: the
 * command starts the workflow, no model decides to): to the first request the call of the
 * workflow's tool, to the request that carries its result that result as the answer. The call
 * goes through the agent like any tool call, so its confirmation, audit, events, cancellation
 * and the interrupted-run repair are those of every tool. A request without the workflow's tool
 * (compaction, or the tool turned off) is left to the model.
 *
 * @example
 * shaping.respond = workflowCommandReply({ toolName: 'workflow_city_report', arguments: { city: 'Oslo' } }, 'wf-run1');
 */
export function workflowCommandReply(
  call: WorkflowCommandCall,
  callId: string,
): (request: ChatRequest) => AsyncIterable<ChatEvent> | undefined {
  return (request) => {
    if (!request.tools.some((tool) => tool.name === call.toolName)) return undefined;
    const result = request.messages.find((message) => message.role === 'tool' && message.callId === callId);
    return (async function* (): AsyncGenerator<ChatEvent> {
      if (result === undefined || result.role !== 'tool') {
        yield {
          type: 'tool_call',
          callId,
          toolName: call.toolName,
          arguments: JSON.stringify(call.arguments),
        };
        yield { type: 'done', finishReason: 'tool_calls' };
        return;
      }
      yield { type: 'text_delta', text: result.content };
      yield { type: 'done', finishReason: 'stop' };
    })();
  };
}
