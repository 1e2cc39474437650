import { useCallback, useState } from 'react';
import { readableArgumentLines, type UiAction, type UiActionResult } from './action-arguments.ts';
import { isApiError, errorMessage } from '../api/index.ts';
import { useUiSurface } from './ui-context.ts';

/** Where one button's call stands. */
export type UiActionState =
  | { status: 'idle' }
  | { status: 'pending' }
  | {
      status: 'confirm';
      tool: string;
      lines: { name: string; value: string }[];
      argumentsMap: Record<string, unknown>;
    }
  | { status: 'done'; result: UiActionResult }
  | { status: 'failed'; message: string };

/**
 * One action's call: pending while it runs, the confirmation the policy asks for, then its
 * output or the server's error. The server decides; this only shows where it stands.
 */
export function useUiAction(action: UiAction): {
  state: UiActionState;
  start: (argumentsMap: Record<string, unknown>) => void;
  confirm: () => void;
  dismiss: () => void;
} {
  const surface = useUiSurface();
  const [state, setState] = useState<UiActionState>({ status: 'idle' });
  const call = useCallback(
    (argumentsMap: Record<string, unknown>, confirmed: boolean) => {
      setState({ status: 'pending' });
      surface.run(action, argumentsMap, confirmed).then(
        (result) => setState({ status: 'done', result }),
        (error: unknown) => {
          if (isApiError(error, 'ACTION_CONFIRMATION_REQUIRED')) {
            setState({
              status: 'confirm',
              tool: typeof error.details['tool'] === 'string' ? error.details['tool'] : '',
              lines: readableArgumentLines(error.details['arguments']),
              argumentsMap,
            });
            return;
          }
          setState({ status: 'failed', message: errorMessage(error) });
        },
      );
    },
    [action, surface],
  );
  return {
    state,
    start: (argumentsMap) => call(argumentsMap, false),
    confirm: () => {
      if (state.status === 'confirm') call(state.argumentsMap, true);
    },
    dismiss: () => setState({ status: 'idle' }),
  };
}
