// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Artifact, ArtifactVersion, MessagePart } from '@youyou/contracts';
import { ArtifactsTab } from '../src/artifacts/index.ts';
import { lastLiveArtifact } from '../src/artifacts/live-artifact.ts';
import type { RunView } from '../src/conversation-state/index.ts';
import { useNavigation } from '../src/navigation/index.ts';
import { usePreferences } from '../src/preferences/index.ts';
import { ServicesProvider } from '../src/services/index.ts';
import { useWorkbenchUi } from '../src/workbench-ui/index.ts';
import { fakeApi, testServices } from './fake-api.ts';

afterEach(cleanup);
beforeEach(() => {
  usePreferences.getState().set({ language: 'en' });
  useWorkbenchUi.getState().closeArtifact();
  useWorkbenchUi.setState({ followedArtifact: undefined });
});

function artifactOf(id: string, kind: Artifact['kind'], version: number, conversationId: string): Artifact {
  return {
    id,
    conversation_id: conversationId,
    project_id: null,
    run_id: 'r1',
    title: `${id}.${kind}`,
    kind,
    language: null,
    media_type: kind === 'html' ? 'text/html' : 'text/markdown',
    version,
    size: 10,
    created_at: '',
    updated_at: '',
  };
}
function versionsOf(artifact: Artifact): ArtifactVersion[] {
  return Array.from({ length: artifact.version }, (_unused, index) => ({
    id: `${artifact.id}-v${String(index + 1)}`,
    artifact_id: artifact.id,
    version: index + 1,
    change: index === 0 ? 'create' : 'replace',
    run_id: 'r1',
    size: 10,
    sha256: '',
    lines: 1,
    created_at: '',
  }));
}

function runWith(parts: MessagePart[], live: boolean): RunView {
  return {
    run: {
      id: 'r1',
      conversation_id: 'c1',
      parent_run_id: null,
      previous_run_id: null,
      user_message_id: 'u1',
      kind: 'conversation',
      status: 'completed',
      phase: 'done',
      model_id: null,
      created_at: '',
    },
    user: {
      id: 'u1',
      role: 'user',
      run_id: 'r1',
      parent_id: null,
      status: 'complete',
      parts: [],
      created_at: '',
    },
    assistant: {
      id: 'a1',
      role: 'assistant',
      run_id: 'r1',
      parent_id: 'u1',
      status: 'complete',
      parts,
      created_at: '',
    },
    last_seq: 3,
    ...(live ? { startedAt: 1 } : {}),
  };
}
const written = (id: string, version: number): MessagePart => ({
  type: 'artifact',
  artifact_id: id,
  title: id,
  kind: 'html',
  version,
  change: version === 1 ? 'create' : 'replace',
  status: 'complete',
});

function renderTab(artifacts: Record<string, Artifact[]>): void {
  const all = Object.values(artifacts).flat();
  const api = fakeApi({
    listArtifacts: (conversationId) => Promise.resolve(artifacts[conversationId] ?? []),
    getArtifact: (id) => {
      const artifact = all.find((item) => item.id === id);
      if (artifact === undefined) return Promise.reject(new Error(`no ${id}`));
      return Promise.resolve({ artifact, versions: versionsOf(artifact) });
    },
    getArtifactVersion: (id, version) =>
      Promise.resolve({
        ...versionsOf(all.find((item) => item.id === id) as Artifact)[0],
        version,
        content: `# ${id}`,
      } as ArtifactVersion),
    diffArtifact: (id, from, to) =>
      Promise.resolve({ artifact_id: id, from, to, hunks: [], added: 0, removed: 0, unified: '' }),
    artifactRenderUrl: (id, version) => `/render/${id}/${String(version)}`,
    artifactDownloadUrl: (id) => `/download/${id}`,
    getConversation: () => new Promise(() => undefined),
  });
  const services = testServices(api);
  render(
    <QueryClientProvider client={services.queryClient}>
      <ServicesProvider services={services}>
        <ArtifactsTab />
      </ServicesProvider>
    </QueryClientProvider>,
  );
}

describe('the artifact viewer', () => {
  it('opens another artifact on its rendered view even when the last one showed a diff', async () => {
    useNavigation.getState().openConversation('c1');
    renderTab({ c1: [artifactOf('notes', 'markdown', 2, 'c1'), artifactOf('page', 'html', 1, 'c1')] });
    act(() => useWorkbenchUi.getState().openArtifact('notes'));
    fireEvent.click(await screen.findByTestId('artifact-compare'));
    expect(screen.getByTestId('diff-from')).toBeTruthy();
    act(() => useWorkbenchUi.getState().openArtifact('page'));
    const frame = await screen.findByTestId('artifact-sandbox');
    expect(frame.getAttribute('src')).toBe('/render/page/1');
    expect(screen.queryByTestId('diff-from')).toBeNull();
  });

  it('shows the newest version of an artifact with one version, never a v1 → v1 diff', async () => {
    useNavigation.getState().openConversation('c1');
    renderTab({ c1: [artifactOf('page', 'html', 1, 'c1')] });
    act(() => useWorkbenchUi.getState().openArtifact('page'));
    expect((await screen.findByTestId('artifact-sandbox')).getAttribute('src')).toBe('/render/page/1');
    expect(screen.queryByTestId('artifact-compare')).toBeNull();
  });

  it('shows the list of the conversation switched to, not the artifact open in the last one', async () => {
    useNavigation.getState().openConversation('c1');
    renderTab({ c1: [artifactOf('page', 'html', 1, 'c1')], c2: [artifactOf('other', 'markdown', 1, 'c2')] });
    act(() => useWorkbenchUi.getState().openArtifact('page'));
    await screen.findByTestId('artifact-viewer');
    act(() => useNavigation.getState().openConversation('c2'));
    await waitFor(() => expect(screen.queryByTestId('artifact-viewer')).toBeNull());
    expect((await screen.findByTestId('artifact-list')).textContent).toContain('other.markdown');
  });
});

describe('the artifact the agent wrote last', () => {
  it('is the newest artifact part of a run seen live', () => {
    expect(lastLiveArtifact([runWith([written('a', 1), written('b', 1), written('a', 2)], true)])).toEqual({
      artifactId: 'a',
      version: 2,
      mark: 'a@2',
    });
  });

  it('is none when the artifacts come from history loaded on open', () => {
    expect(lastLiveArtifact([runWith([written('a', 1)], false)])).toBeUndefined();
  });

  it('opens once per write, so closing the viewer keeps it closed until the next write', () => {
    useNavigation.getState().openConversation('c1');
    const ui = useWorkbenchUi.getState();
    ui.followArtifact('a', 'a@1');
    expect(useWorkbenchUi.getState().artifactId).toBe('a');
    useWorkbenchUi.getState().closeArtifact();
    useWorkbenchUi.getState().followArtifact('a', 'a@1');
    expect(useWorkbenchUi.getState().artifactId).toBeUndefined();
    useWorkbenchUi.getState().followArtifact('a', 'a@2');
    expect(useWorkbenchUi.getState()).toMatchObject({ artifactId: 'a', artifactVersion: undefined });
  });
});
