/**
 * What `youyou` exits with; scripts can rely on these.
 *
 * @example
 * // youyou doctor --json > report.json; test $? -eq 0 || echo "something was skipped"
 * if (code === EXIT_CODES.problems) warn('some component folders were skipped');
 */
export const EXIT_CODES = Object.freeze({
  /** Done; `doctor`: everything loaded. */
  ok: 0,
  /** The operation failed (an `AgentError`: name conflict, not found, invalid component, broken config.yaml). */
  failed: 1,
  /** The command line was wrong: unknown command or option, missing argument. */
  usage: 2,
  /** `doctor` only: the agent would build, but some component folders were skipped. */
  problems: 3,
});

/** One of `EXIT_CODES`. @example const code: ExitCode = await main(['doctor']); */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
