import { AgentError } from '../errors/index.ts';

/**
 * Why a turn was stopped early: `cancel` — the user cancelled it; `interrupt` — its host is going
 * away (a server shutting down, a consumer that stopped iterating). Both stop the turn the same way
 * (spec §6.2); the kind travels in the abort reason so the host can tell its user which it was.
 */
export type StopKind = 'cancel' | 'interrupt';

/**
 * The abort reason for a stopped turn: REQUEST_CANCELLED carrying its kind.
 *
 * @example
 * controller.abort(stopReason('interrupt', 'The server is stopping.'));
 * session.send('hi', { signal: controller.signal });
 */
export function stopReason(kind: StopKind, message?: string): AgentError {
  return new AgentError(
    'REQUEST_CANCELLED',
    message ?? (kind === 'cancel' ? 'The turn was cancelled.' : 'The turn was interrupted.'),
    { details: { stop: kind } },
  );
}

/** The kind of stop an abort reason carries; anything but a `stopReason('interrupt')` is a cancel. */
export function stopKindOf(reason: unknown): StopKind {
  return reason instanceof AgentError && reason.details['stop'] === 'interrupt' ? 'interrupt' : 'cancel';
}
