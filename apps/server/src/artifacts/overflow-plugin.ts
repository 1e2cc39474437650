import { continueWith, type Plugin } from '@youyou/agent';
import type { ServerLogger } from '../logging/index.ts';
import type { ArtifactService } from './artifact-service.ts';

/** The default per-result budget (spec §4.10): what one tool result may put into the context. */
export const DEFAULT_TOOL_RESULT_BUDGET_BYTES = 16 * 1024;

/** Cuts `text` to at most `bytes` of UTF-8 from the start (`fromEnd`: from the end), on a line when one is near. */
function slice(text: string, bytes: number, fromEnd: boolean): string {
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= bytes) return text;
  let piece = fromEnd
    ? buffer.subarray(buffer.length - bytes).toString('utf8')
    : buffer.subarray(0, bytes).toString('utf8');
  // A cut inside a character leaves U+FFFD at the edge; drop it.
  piece = fromEnd ? piece.replace(/^\uFFFD+/, '') : piece.replace(/\uFFFD+$/, '');
  const newline = fromEnd ? piece.indexOf('\n') : piece.lastIndexOf('\n');
  const nearEdge = fromEnd ? newline !== -1 && newline < 200 : newline !== -1 && piece.length - newline < 200;
  if (!nearEdge) return piece;
  return fromEnd ? piece.slice(newline + 1) : piece.slice(0, newline);
}

/**
 * The model's view of a result that overflowed into an artifact: its head and tail, and where
 * the rest is.
 *
 * @example
 * overflowNotice({ content, budgetBytes: 16384, artifactId, title });
 */
export function overflowNotice(options: {
  content: string;
  budgetBytes: number;
  artifactId: string;
  title: string;
}): string {
  const total = Buffer.byteLength(options.content);
  const notice = `\n\n[… The result was ${total} bytes, over the ${options.budgetBytes}-byte budget: stored whole as artifact "${options.title}" (id ${options.artifactId}) — use read_artifact with that id and from_line/to_line to read the rest. …]\n\n`;
  const room = Math.max(256, options.budgetBytes - Buffer.byteLength(notice));
  const head = slice(options.content, Math.floor(room * 0.7), false);
  const tail = slice(options.content, Math.floor(room * 0.3), true);
  return `${head}${notice}${tail}`;
}

function kindOf(content: string): 'json' | 'text' {
  const trimmed = content.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return 'text';
  try {
    JSON.parse(content);
    return 'json';
  } catch {
    return 'text';
  }
}

/**
 * Tool results over the per-result budget become artifacts (spec §4.10): the model gets the head
 * and the tail with a pointer to `read_artifact`, the user sees the same text in the tool card and
 * the artifact's chip beside it. A hook on AfterToolUse, so it covers every tool, whoever
 * registered it.
 *
 * @example
 * builder.addPlugin(overflowPlugin({ artifacts, budgetBytes: 16384, logger }));
 */
export function overflowPlugin(options: {
  artifacts: ArtifactService;
  budgetBytes?: number;
  logger: ServerLogger;
}): Plugin {
  const budget = options.budgetBytes ?? DEFAULT_TOOL_RESULT_BUDGET_BYTES;
  return {
    id: 'workbench-tool-result-overflow',
    displayName: 'Tool result overflow',
    description:
      'Stores tool results over the per-result budget as artifacts and gives the model head and tail.',
    apply(hooks) {
      hooks.tap('AfterToolUse', async (payload) => {
        const { content, isError } = payload.output;
        // read_artifact bounds its own output; anything else that long goes to an artifact.
        if (payload.toolName === 'read_artifact' || content.length <= budget / 3) return undefined;
        const bytes = Buffer.byteLength(content);
        if (bytes <= budget) return undefined;
        try {
          const scope = await options.artifacts.scopeOf(payload.sessionId);
          const title = `${payload.toolName} result ${payload.callId.slice(-8)}`;
          const artifact = await options.artifacts.create(scope, {
            title,
            kind: kindOf(content),
            content,
            overflowOf: { call_id: payload.callId, tool_name: payload.toolName, bytes },
          });
          return continueWith<'AfterToolUse'>({
            output: {
              content: overflowNotice({ content, budgetBytes: budget, artifactId: artifact.id, title }),
              isError,
            },
          });
        } catch (error) {
          options.logger.warn(
            { err: error, callId: payload.callId },
            'an overflowing tool result could not be stored',
          );
          return undefined;
        }
      });
    },
  };
}
