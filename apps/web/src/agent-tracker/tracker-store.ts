import type { AgentNode, AgentTree, WorkbenchEvent } from '@youyou/contracts';
import type { ApiClient, EventStream, openEventStream } from '../api/index.ts';
import { applyToRun, createdRun, type RunView } from '../conversation-state/index.ts';

/** What the tracker shows: the task tree and the process of each sub-agent it has seen. */
export interface TrackerSnapshot {
  loaded: boolean;
  error: string | undefined;
  /** Top-level runs that spawned sub-agents, oldest first. */
  roots: { run_id: string; status: string; children: AgentNode[] }[];
  /** Each sub-agent's run as the conversation's renderers draw it (replayed, then live). */
  processes: ReadonlyMap<string, RunView>;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'interrupted']);

/**
 * Whether an ended sub-agent recorded no tokens at all: one stopped before its provider reported
 * any counts is stored with zeros, which a view shows as "—", not as "0 tokens".
 */
export function endedWithoutTokens(node: Pick<AgentNode, 'status' | 'tokens'>): boolean {
  return TERMINAL.has(node.status) && node.tokens.input + node.tokens.output === 0;
}

function mapNodes(nodes: AgentNode[], change: (node: AgentNode) => AgentNode): AgentNode[] {
  return nodes.map((node) => {
    const changed = change(node);
    const children = mapNodes(changed.children, change);
    return children.every((child, index) => child === changed.children[index])
      ? changed
      : { ...changed, children };
  });
}

function findNode(nodes: readonly AgentNode[], runId: string): AgentNode | undefined {
  for (const node of nodes) {
    if (node.run_id === runId) return node;
    const found = findNode(node.children, runId);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Every node of the tree, depth first. */
export function flattenTree(roots: TrackerSnapshot['roots']): AgentNode[] {
  const nodes: AgentNode[] = [];
  const walk = (list: readonly AgentNode[]): void => {
    for (const node of list) {
      nodes.push(node);
      walk(node.children);
    }
  };
  for (const root of roots) walk(root.children);
  return nodes;
}

/**
 * The tracker's state for one conversation (spec §4.4 AgentTracker), outside React: the tree from
 * `GET /conversations/:id/agents`, kept live by the conversation's event stream from the tree's
 * `last_seq` (agent.spawn adds a node, agent.progress and run events move it, agent.result ends
 * it), and each sub-agent's process — its stored events replayed (§4.17), then its live ones —
 * through the same projection as the conversation. Components read it with useSyncExternalStore.
 *
 * @example
 * const tracker = new TrackerStore({ conversationId, api, openStream: openEventStream });
 * tracker.start();
 * await tracker.loadProcess(runId);
 */
export class TrackerStore {
  readonly #conversationId: string;
  readonly #api: ApiClient;
  readonly #openStream: typeof openEventStream;
  readonly #listeners = new Set<() => void>();
  readonly #replaying = new Set<string>();
  #stream: EventStream | undefined;
  #snapshot: TrackerSnapshot = { loaded: false, error: undefined, roots: [], processes: new Map() };
  #started = false;

  constructor(options: { conversationId: string; api: ApiClient; openStream: typeof openEventStream }) {
    this.#conversationId = options.conversationId;
    this.#api = options.api;
    this.#openStream = options.openStream;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): TrackerSnapshot => this.#snapshot;

  /** Loads the tree and follows the stream; idempotent. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    void this.#load();
  }

  stop(): void {
    this.#stream?.close();
    this.#stream = undefined;
    this.#started = false;
  }

  /** Replays a sub-agent's stored events into its process (once). */
  async loadProcess(runId: string): Promise<void> {
    if (this.#replaying.has(runId)) return;
    this.#replaying.add(runId);
    try {
      const events = await this.#api.runEvents(runId);
      let process = this.#snapshot.processes.get(runId);
      for (const event of events) process = this.#applyProcess(process, event);
      if (process !== undefined) this.#setProcess(runId, process);
    } catch {
      this.#replaying.delete(runId);
    }
  }

  async #load(): Promise<void> {
    let tree: AgentTree;
    try {
      tree = await this.#api.agentTree(this.#conversationId);
    } catch (error) {
      this.#set({ error: error instanceof Error ? error.message : String(error), loaded: true });
      this.#started = false;
      return;
    }
    this.#set({ loaded: true, error: undefined, roots: tree.roots });
    if (!this.#started) return;
    this.#stream = this.#openStream({
      conversationId: this.#conversationId,
      after: tree.last_seq,
      onEvent: (event) => this.apply(event),
    });
  }

  /** Applies one live event (exposed for tests). */
  apply(event: WorkbenchEvent): void {
    if (event.conversation_id !== this.#conversationId || event.run_id === null) return;
    const runId = event.run_id;
    switch (event.type) {
      case 'agent.spawn':
        this.#addNode(runId, event);
        break;
      case 'agent.progress':
        this.#updateNode(runId, (node) => ({
          ...node,
          phase: event.payload.phase,
          current_tool: event.payload.current_tool,
          last_text: event.payload.last_text,
          tokens: event.payload.tokens,
          tool_calls: event.payload.tool_calls,
        }));
        break;
      case 'agent.result':
        this.#updateNode(runId, (node) => ({
          ...node,
          status: event.payload.status,
          phase: 'done',
          current_tool: null,
          result: event.payload.summary,
          error: event.payload.error,
          tokens: { input: event.payload.usage.input_tokens, output: event.payload.usage.output_tokens },
          tool_calls: event.payload.usage.tool_calls,
          ended_at: node.ended_at ?? event.ts,
          duration_ms:
            node.started_at === null ? node.duration_ms : Date.parse(event.ts) - Date.parse(node.started_at),
        }));
        break;
      case 'run.phase':
        this.#updateNode(runId, (node) => ({
          ...node,
          status: event.payload.status,
          phase: event.payload.phase,
          started_at: node.started_at ?? event.ts,
        }));
        this.#updateRoot(runId, event.payload.status);
        break;
      case 'run.completed':
        this.#updateRoot(runId, 'completed');
        break;
      case 'run.failed':
        this.#updateRoot(runId, 'failed');
        break;
      case 'run.cancelled':
        this.#updateRoot(runId, 'cancelled');
        break;
      case 'run.interrupted':
        this.#updateRoot(runId, 'interrupted');
        break;
      case 'artifact.created':
        this.#updateNode(runId, (node) =>
          node.artifacts.some((artifact) => artifact.id === event.payload.artifact.id)
            ? node
            : {
                ...node,
                artifacts: [
                  ...node.artifacts,
                  {
                    id: event.payload.artifact.id,
                    title: event.payload.artifact.title,
                    kind: event.payload.artifact.kind,
                  },
                ],
              },
        );
        break;
      default:
        break;
    }
    const current = this.#snapshot.processes.get(runId);
    if (current !== undefined || (event.type === 'run.created' && event.payload.run.kind === 'subagent')) {
      const next = this.#applyProcess(current, event);
      if (next !== undefined && next !== current) this.#setProcess(runId, next);
    }
  }

  #applyProcess(process: RunView | undefined, event: WorkbenchEvent): RunView | undefined {
    if (event.type === 'run.created') return process ?? createdRun(event, Date.parse(event.ts));
    if (process === undefined) return undefined;
    return applyToRun(process, event, Date.parse(event.ts));
  }

  #addNode(runId: string, event: WorkbenchEvent & { type: 'agent.spawn' }): void {
    if (findNode(flattenTree(this.#snapshot.roots), runId) !== undefined) return;
    const spawn = event.payload;
    const node: AgentNode = {
      run_id: runId,
      parent_run_id: spawn.parent_run_id,
      root_run_id: spawn.root_run_id,
      conversation_id: event.conversation_id,
      call_id: spawn.call_id,
      task: spawn.task,
      instructions: spawn.instructions,
      expected_output: spawn.expected_output,
      tools: spawn.tools,
      profile_id: spawn.profile_id,
      depth: spawn.depth,
      status: 'pending',
      phase: 'pending',
      current_tool: null,
      last_text: '',
      tokens: { input: 0, output: 0 },
      tool_calls: 0,
      budget: spawn.budget,
      created_at: event.ts,
      started_at: null,
      ended_at: null,
      duration_ms: null,
      result: null,
      error: null,
      artifacts: [],
      children: [],
    };
    const roots = [...this.#snapshot.roots];
    if (spawn.parent_run_id === spawn.root_run_id) {
      const index = roots.findIndex((root) => root.run_id === spawn.root_run_id);
      if (index === -1) roots.push({ run_id: spawn.root_run_id, status: 'running', children: [node] });
      else {
        const root = roots[index] as TrackerSnapshot['roots'][number];
        roots[index] = { ...root, children: [...root.children, node] };
      }
      this.#set({ roots });
      return;
    }
    this.#set({
      roots: roots.map((root) => ({
        ...root,
        children: mapNodes(root.children, (candidate) =>
          candidate.run_id === spawn.parent_run_id
            ? { ...candidate, children: [...candidate.children, node] }
            : candidate,
        ),
      })),
    });
  }

  #updateNode(runId: string, change: (node: AgentNode) => AgentNode): void {
    if (findNode(flattenTree(this.#snapshot.roots), runId) === undefined) return;
    this.#set({
      roots: this.#snapshot.roots.map((root) => ({
        ...root,
        children: mapNodes(root.children, (node) => {
          if (node.run_id !== runId) return node;
          // A node that has ended keeps its end; late progress does not reopen it.
          if (TERMINAL.has(node.status) && change !== undefined) {
            const changed = change(node);
            return TERMINAL.has(changed.status) ? changed : node;
          }
          return change(node);
        }),
      })),
    });
  }

  #updateRoot(runId: string, status: string): void {
    if (!this.#snapshot.roots.some((root) => root.run_id === runId)) return;
    this.#set({
      roots: this.#snapshot.roots.map((root) => (root.run_id === runId ? { ...root, status } : root)),
    });
  }

  #setProcess(runId: string, process: RunView): void {
    const processes = new Map(this.#snapshot.processes);
    processes.set(runId, process);
    this.#set({ processes });
  }

  #set(changes: Partial<TrackerSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...changes };
    for (const listener of this.#listeners) listener();
  }
}
