import type { ArtifactEdit } from '@youyou/contracts';
import { ApiError } from '../errors/index.ts';

function lineOf(content: string, index: number): number {
  let line = 1;
  for (let at = content.indexOf('\n'); at !== -1 && at < index; at = content.indexOf('\n', at + 1)) line++;
  return line;
}

function preview(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/**
 * Applies exact find → replace edits in order, each to the result of the one before. A find that
 * is not there, or is there more than once, fails the whole update (nothing is half-applied): the
 * error says which edit, and for an ambiguous one on which lines it occurs, so the model can
 * widen it.
 *
 * @example
 * applyEdits('a b c', [{ find: 'b', replace: 'B' }]); // 'a B c'
 */
export function applyEdits(content: string, edits: readonly ArtifactEdit[]): string {
  let result = content;
  edits.forEach((edit, index) => {
    if (edit.find === '') {
      throw new ApiError('INVALID_INPUT', `Edit ${index + 1} has an empty find string.`, {
        details: { edit_index: index },
      });
    }
    const first = result.indexOf(edit.find);
    if (first === -1) {
      throw new ApiError(
        'ARTIFACT_EDIT_NOT_FOUND',
        `Edit ${index + 1}: the text to find does not occur in the artifact: ${JSON.stringify(preview(edit.find))}. Read the artifact again and copy the text exactly.`,
        { details: { edit_index: index, find: preview(edit.find) } },
      );
    }
    const second = result.indexOf(edit.find, first + 1);
    if (second !== -1) {
      const lines: number[] = [];
      for (let at = first; at !== -1 && lines.length < 20; at = result.indexOf(edit.find, at + 1)) {
        lines.push(lineOf(result, at));
      }
      throw new ApiError(
        'ARTIFACT_EDIT_AMBIGUOUS',
        `Edit ${index + 1}: the text to find occurs more than once (lines ${lines.join(', ')}): ${JSON.stringify(preview(edit.find))}. Include more surrounding text so it matches once.`,
        { details: { edit_index: index, find: preview(edit.find), lines } },
      );
    }
    result = result.slice(0, first) + edit.replace + result.slice(first + edit.find.length);
  });
  return result;
}
