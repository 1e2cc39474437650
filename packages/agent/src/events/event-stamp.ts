import type { AgentEvent, AgentEventBody } from './agent-event.ts';

/** Where a session's next event sequence number is kept (the session state). */
export interface SequenceCounter {
  sequence: number;
}

/**
 * Puts the envelope (spec §7) on the events of one turn. `delta` builds the hottest event in one
 * fixed-shape literal: it runs once per streamed token.
 */
export class EventStamp {
  readonly sessionId: string;
  readonly turnId: string;
  readonly #counter: SequenceCounter;

  constructor(sessionId: string, turnId: string, counter: SequenceCounter) {
    this.sessionId = sessionId;
    this.turnId = turnId;
    this.#counter = counter;
  }

  stamp(body: AgentEventBody): AgentEvent {
    return {
      ...body,
      sessionId: this.sessionId,
      turnId: this.turnId,
      timestamp: Date.now(),
      sequence: this.#counter.sequence++,
    };
  }

  delta(type: 'TextDelta' | 'ReasoningDelta', text: string): AgentEvent {
    return {
      type,
      text,
      sessionId: this.sessionId,
      turnId: this.turnId,
      timestamp: Date.now(),
      sequence: this.#counter.sequence++,
    };
  }
}
