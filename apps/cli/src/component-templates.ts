import type { ComponentDraft, ComponentFile } from '@youyou/agent/files';

type Kind = ComponentDraft['kind'];

/**
 * A small working component of each kind, for `youyou components add <kind> <name>` without
 * `--from`: edit it afterwards.
 *
 * @example
 * const { frontMatter, body, files } = componentTemplate('tool', 'word_count');
 */
export function componentTemplate(
  kind: Kind,
  name: string,
): { frontMatter: Record<string, unknown>; body: string; files: ComponentFile[] } {
  switch (kind) {
    case 'tool':
      return {
        frontMatter: {
          mutating: false,
          parameters: [{ name: 'text', type: 'string', description: 'The text to work on.', required: true }],
          execution: { command: './run.sh' },
        },
        body: `Describe what ${name} does, when the model should call it, and what it returns.`,
        files: [
          {
            path: 'run.sh',
            content:
              '#!/bin/sh\n# Receives {"call_id", "tool_name", "arguments"} as JSON on stdin.\n# stdout is the result; a non-zero exit marks it as an error.\ninput=$(cat)\necho "$input"\n',
          },
        ],
      };
    case 'skill':
      return {
        frontMatter: { description: `What /${name} does, in one line.`, allow_implicit_invocation: false },
        body: `The prompt injected when the user types /${name}.`,
        files: [],
      };
    case 'plugin':
      return {
        frontMatter: {
          display_name: name,
          enabled: true,
          config: {},
          hooks: { SessionStart: { command: './session-start.sh' } },
        },
        body: `Describe what the ${name} plugin does.`,
        files: [
          {
            path: 'session-start.sh',
            content:
              '#!/bin/sh\n# Receives the hook payload (with plugin_config) as JSON on stdin.\n# Print {} to continue, {"data": {...}} to change data, {"abort": true, "reason": "..."} to stop.\ncat > /dev/null\necho "{}"\n',
          },
        ],
      };
  }
}
