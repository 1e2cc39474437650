import type { TreeRun } from '../storage/index.ts';
import type { SiblingInfo } from '@youyou/contracts';

/**
 * The message tree of a conversation (decision 0003). Each top-level run is one exchange: a user
 * message and the assistant's answer (whose id is the run id). `previous_run_id` links a run to
 * the exchange before it. Runs with the same previous run are alternatives: a different
 * `user_message_id` is an edited question, the same one a regenerated answer.
 *
 * @example
 * const tree = new ConversationTree(await runs.tree(conversationId));
 * const branch = tree.path(conversation.active_run_id);
 */
export class ConversationTree {
  readonly #runs = new Map<string, TreeRun>();
  /** previous run id ('' for the root) → runs after it, oldest first. */
  readonly #children = new Map<string, TreeRun[]>();

  constructor(runs: readonly TreeRun[]) {
    const ordered = [...runs].sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
    for (const run of ordered) {
      this.#runs.set(run.id, run);
      const key = run.previous_run_id ?? '';
      const list = this.#children.get(key);
      if (list === undefined) this.#children.set(key, [run]);
      else list.push(run);
    }
  }

  get size(): number {
    return this.#runs.size;
  }

  run(id: string): TreeRun | undefined {
    return this.#runs.get(id);
  }

  /** The runs from the first exchange to `leafId`, in order; empty when there is no leaf. */
  path(leafId: string | null | undefined): TreeRun[] {
    const path: TreeRun[] = [];
    const seen = new Set<string>();
    let current = leafId === null || leafId === undefined ? undefined : this.#runs.get(leafId);
    while (current !== undefined && !seen.has(current.id)) {
      seen.add(current.id);
      path.push(current);
      current = current.previous_run_id === null ? undefined : this.#runs.get(current.previous_run_id);
    }
    return path.reverse();
  }

  /** The alternative user messages at `run`'s place: distinct user messages after the same run. */
  userSiblings(run: TreeRun): SiblingInfo {
    const ids: string[] = [];
    for (const candidate of this.#children.get(run.previous_run_id ?? '') ?? []) {
      const id = candidate.user_message_id;
      if (id !== null && !ids.includes(id)) ids.push(id);
    }
    return { ids, index: Math.max(0, ids.indexOf(run.user_message_id ?? '')) };
  }

  /** The alternative answers to `run`'s user message: regenerations share it. */
  assistantSiblings(run: TreeRun): SiblingInfo {
    const ids = (this.#children.get(run.previous_run_id ?? '') ?? [])
      .filter((candidate) => candidate.user_message_id === run.user_message_id)
      .map((candidate) => candidate.id);
    return { ids, index: Math.max(0, ids.indexOf(run.id)) };
  }

  /** Runs whose user message is `userMessageId`. */
  runsOfUserMessage(userMessageId: string): TreeRun[] {
    return [...this.#runs.values()].filter((run) => run.user_message_id === userMessageId);
  }

  /**
   * The newest leaf below any of `starts` (themselves included): where a branch switch lands,
   * so the user sees that branch as it was last extended.
   */
  latestLeaf(starts: readonly TreeRun[]): TreeRun | undefined {
    let best: TreeRun | undefined;
    const stack = [...starts];
    while (stack.length > 0) {
      const run = stack.pop() as TreeRun;
      const children = this.#children.get(run.id) ?? [];
      if (children.length === 0) {
        if (best === undefined || run.created_at > best.created_at) best = run;
      } else stack.push(...children);
    }
    return best;
  }
}
