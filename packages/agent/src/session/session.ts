import type { UserInput } from '../content/index.ts';
import { AgentError } from '../errors/index.ts';
import type { SystemPrompt } from '../prompt/index.ts';
import type { Message, ModelInfo } from '../provider/index.ts';
import type { SessionState } from './session-runtime.ts';
import { Turn, type TurnResult } from './turn.ts';
import { runTurn } from './turn-runner.ts';

export interface SendOptions {
  /** Cancels the turn when aborted, like `turn.cancel()`. */
  signal?: AbortSignal;
}

/**
 * A conversation with one model. One turn runs at a time; `close()` ends it (SessionEnd, memory
 * extraction) and frees the agent for another session.
 *
 * @example
 * const session = await agent.newSession({ modelId: 'gpt-4.1' });
 * for await (const event of session.send('Hello')) console.log(event.type);
 * await session.close();
 */
export class Session {
  readonly #state: SessionState;
  readonly #release: () => void;
  #current: Turn | undefined;
  #closing: Promise<void> | undefined;
  #checkpoint: Promise<unknown> = Promise.resolve();

  constructor(state: SessionState, release: () => void) {
    this.#state = state;
    this.#release = release;
  }

  get id(): string {
    return this.#state.sessionId;
  }

  get model(): ModelInfo {
    return this.#state.runtime.model.model;
  }

  get closed(): boolean {
    return this.#closing !== undefined;
  }

  /** The context as the model will see it next (after any compaction). */
  get messages(): readonly Message[] {
    return this.#state.context.messages;
  }

  get estimatedTokens(): number {
    return this.#state.context.estimatedTokens;
  }

  /** The system prompt of the latest turn, or the one the next turn starts from. */
  systemPrompt(): SystemPrompt {
    return (
      this.#state.systemPrompt ??
      this.#state.runtime.prompt.build({ memories: this.#state.memories, dynamicSections: [] })
    );
  }

  /**
   * Starts a turn. Throws SESSION_BUSY while another turn of this session runs and
   * SESSION_NOT_FOUND after `close()`; every other problem arrives as events of the turn.
   */
  send(input: UserInput, options: SendOptions = {}): Turn {
    if (this.#closing !== undefined) {
      throw new AgentError('SESSION_NOT_FOUND', `Session ${this.id} is closed; resume it to continue.`, {
        details: { sessionId: this.id },
      });
    }
    const current = this.#current?.state;
    if (current === 'running' || current === 'cancelling') {
      throw new AgentError(
        'SESSION_BUSY',
        `A turn is still running in session ${this.id}; wait for it or cancel it.`,
        {
          details: { sessionId: this.id },
        },
      );
    }
    const turn = new Turn(
      crypto.randomUUID(),
      (control) =>
        runTurn(this.#state, input, {
          ...control,
          finish: (result) => {
            control.finish(result);
            this.#afterTurn(result);
          },
        }),
      options.signal,
    );
    this.#current = turn;
    return turn;
  }

  /** Ends the session: cancels a running turn, fires SessionEnd, extracts memories (failures are logged). */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    const { runtime, sessionId } = this.#state;
    try {
      const turn = this.#current;
      if (turn !== undefined && (turn.state === 'running' || turn.state === 'cancelling')) {
        turn.cancel();
        await turn.done();
      }
      // Abort on SessionEnd cannot keep the session open (the caller asked to close it); it skips
      // the close's own work, the memory extraction (decision 0005).
      const ended = await runtime.hooks.run('SessionEnd', {
        sessionId,
        messageCount: this.#state.messageCount,
      });
      await this.#checkpoint;
      if (ended.aborted === undefined) await this.#extract();
      else
        runtime.logger.info(
          { sessionId, pluginId: ended.aborted.pluginId, reason: ended.aborted.reason },
          'SessionEnd aborted by a plugin: memories of this session are not extracted',
        );
      const error = await this.#state.writer.flush();
      if (error !== undefined)
        runtime.logger.error({ sessionId, error: error.toJSON() }, 'records could not be stored at close');
    } finally {
      this.#release();
    }
  }

  #afterTurn(result: TurnResult): void {
    const interval = this.#state.runtime.config.memoryCheckpointInterval;
    if (result.state === 'completed' && this.#state.completedTurns % interval === 0) {
      // The checkpoint runs beside the next turn; close() waits for it.
      this.#checkpoint = this.#checkpoint.then(() => this.#extract());
    }
  }

  #extract(): Promise<number> {
    const messages = this.#state.unextracted;
    this.#state.unextracted = [];
    return this.#state.runtime.memory.extract({
      sessionId: this.#state.sessionId,
      namespace: this.#state.runtime.namespace,
      sessionModelId: this.#state.runtime.model.model.id,
      messages,
    });
  }
}
