import { stat } from 'node:fs/promises';
import { AgentError, type ToolHandler } from '@youyou/agent';
import { globFilter, skippedNote, walkFiles } from './file-walk.ts';
import { errorOutput } from './tool-errors.ts';
import type { ScopeOf } from './tool-scope.ts';

const DEFAULT_LIMIT = 500;

/**
 * `list_files`: the project's files below a directory, honouring `.gitignore`, filtered by a glob,
 * to a depth, capped.
 *
 * @example
 * builder.addTool(listFilesTool(scopeOf));
 */
export function listFilesTool(scopeOf: ScopeOf): ToolHandler {
  return {
    name: 'list_files',
    description:
      'Lists files and directories in the project (honours .gitignore; skips .git). Directories end with "/". Filter with a glob ("*.ts", "src/**/*.md"); depth limits how far below path it goes.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Default ".".' },
        glob: { type: 'string' },
        depth: {
          type: 'integer',
          minimum: 0,
          maximum: 50,
          description: 'Default 3.',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 5000,
          description: 'Default 500.',
        },
      },
      additionalProperties: false,
    },
    mutating: false,
    async execute({ arguments: input }, context) {
      try {
        const scope = await scopeOf(context);
        const target = typeof input.path === 'string' && input.path !== '' ? input.path : '.';
        const real = await scope.resolve(target);
        if (!(await stat(real)).isDirectory()) {
          throw new AgentError('INVALID_INPUT', `'${target}' is a file; use read_file to read it.`);
        }
        const matches = globFilter(typeof input.glob === 'string' ? input.glob : undefined);
        const filtering = typeof input.glob === 'string' && input.glob.trim() !== '';
        const limit = typeof input.limit === 'number' ? input.limit : DEFAULT_LIMIT;
        const maxDepth = typeof input.depth === 'number' ? input.depth : 3;
        const lines: string[] = [];
        let more = false;
        const prefix = scope.display(real) === '.' ? '' : `${scope.display(real)}/`;
        const skipped: string[] = [];
        for await (const entry of walkFiles(real, {
          maxDepth,
          signal: context.signal,
          allows: (file) => scope.allows(file),
        })) {
          if (entry.outside === true) {
            skipped.push(`${prefix}${entry.relative}`);
            continue;
          }
          if (entry.directory ? filtering : !matches(entry.relative)) continue;
          if (lines.length === limit) {
            more = true;
            break;
          }
          lines.push(`${prefix}${entry.relative}${entry.directory ? '/' : ''}`);
        }
        const header =
          lines.length === 0
            ? `No files${filtering ? ` match ${String(input.glob)}` : ''} in ${scope.display(real)}.`
            : `${lines.length}${more ? '+' : ''} entries in ${scope.display(real)}${more ? ` (stopped at ${limit}; narrow with glob or depth)` : ''}:`;
        return {
          content: `${[header, ...lines].join('\n')}${skippedNote(skipped)}`,
          metadata: { count: lines.length, truncated: more, skipped_links: skipped.length },
        };
      } catch (error) {
        return errorOutput(error);
      }
    },
  };
}
