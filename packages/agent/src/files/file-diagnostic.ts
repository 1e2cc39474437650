import type { ComponentKind, ComponentLayer, LoadDiagnostic } from '../components/index.ts';

/**
 * Why the file channel reported something. `error` means the folder (or file) was skipped;
 * `warning` means it loaded and something in it was ignored (an unknown field, a misspelt hook).
 *
 * @example
 * agent.diagnostics.filter((diagnostic) => (diagnostic as FileLoadDiagnostic).severity === 'error');
 */
export type FileDiagnosticSeverity = 'error' | 'warning';

/**
 * A `LoadDiagnostic` with the file channel's extra facts. It is assignable to `LoadDiagnostic`, so
 * the builder passes it through unchanged and `agent.diagnostics` keeps `severity` and `line`.
 *
 * @example
 * const diagnostic: FileLoadDiagnostic = {
 *   path: '/home/me/.youyou/tools/grep/index.md',
 *   reason: 'front matter field `version` must be 1 (line 2)',
 *   kind: 'tool',
 *   layer: 'global',
 *   severity: 'error',
 *   line: 2,
 * };
 */
export interface FileLoadDiagnostic extends LoadDiagnostic {
  severity: FileDiagnosticSeverity;
  /** 1-based line in `path`, when the problem has one. */
  line?: number;
}

/** The layers the file channel reads. @example const layer: FileLayer = 'project'; */
export type FileLayer = Exclude<ComponentLayer, 'programmatic'>;

/** Builds a diagnostic without `undefined`-valued optional fields (`exactOptionalPropertyTypes`). */
export function fileDiagnostic(options: {
  path: string;
  reason: string;
  severity?: FileDiagnosticSeverity;
  kind?: ComponentKind | undefined;
  layer?: FileLayer | undefined;
  line?: number | undefined;
}): FileLoadDiagnostic {
  const diagnostic: FileLoadDiagnostic = {
    path: options.path,
    reason: options.reason,
    severity: options.severity ?? 'error',
  };
  if (options.kind !== undefined) diagnostic.kind = options.kind;
  if (options.layer !== undefined) diagnostic.layer = options.layer;
  if (options.line !== undefined) diagnostic.line = options.line;
  return diagnostic;
}
