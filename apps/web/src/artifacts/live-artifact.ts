import type { RunView } from '../conversation-state/index.ts';

/** An artifact version one of the conversation's turns wrote. */
export interface WrittenArtifact {
  artifactId: string;
  version: number;
  /** `id@version`: tells one write from the next. */
  mark: string;
}

/**
 * The artifact the agent wrote last while this page watched: the newest artifact part of a run
 * this client saw events of (`startedAt` is set only then), so history loaded on open never
 * counts as a new write.
 *
 * @example
 * const written = lastLiveArtifact(snapshot.runs); // { artifactId: 'a1', version: 2, mark: 'a1@2' }
 */
export function lastLiveArtifact(runs: readonly RunView[]): WrittenArtifact | undefined {
  for (let index = runs.length - 1; index >= 0; index -= 1) {
    const run = runs[index];
    if (run?.startedAt === undefined) continue;
    for (let partIndex = run.assistant.parts.length - 1; partIndex >= 0; partIndex -= 1) {
      const part = run.assistant.parts[partIndex];
      if (part?.type === 'artifact')
        return {
          artifactId: part.artifact_id,
          version: part.version,
          mark: `${part.artifact_id}@${String(part.version)}`,
        };
    }
  }
  return undefined;
}
