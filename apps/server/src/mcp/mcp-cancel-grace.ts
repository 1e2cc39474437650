/** How long a cancelled run waits for a running MCP call before cancelling it (decision 0036). */
export const MCP_CANCEL_GRACE_MS = 10_000;

/** The grace of one call: `signal` aborts `graceMs` after the turn's cancel; `dispose` when the call settles. */
export interface CancelGrace {
  signal: AbortSignal;
  dispose(): void;
}

/**
 * Spec §6.2 waits for running tools on cancel; an MCP call may take minutes, so it is waited for
 * `graceMs`, then cancelled the MCP way (aborting the call sends `notifications/cancelled`).
 * Disposing matters: a timer left behind would cancel a request that has already answered.
 *
 * @example
 * const grace = cancelGrace(context.cancelSignal, MCP_CANCEL_GRACE_MS);
 * try {
 *   return await connection.call(name, args, { signal: AbortSignal.any([context.signal, grace.signal]) });
 * } finally {
 *   grace.dispose();
 * }
 */
export function cancelGrace(cancel: AbortSignal, graceMs: number): CancelGrace {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const start = (): void => {
    timer = setTimeout(() => controller.abort(cancel.reason), graceMs);
    timer.unref();
  };
  if (cancel.aborted) start();
  else cancel.addEventListener('abort', start, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      cancel.removeEventListener('abort', start);
      clearTimeout(timer);
    },
  };
}
