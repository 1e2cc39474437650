import { randomUUID } from 'node:crypto';
import {
  formValueProblems,
  type FreeInputRoute,
  type HitlAnswer,
  type HitlAnswerRequest,
  type HitlAnswerResult,
  type HitlCard,
  type HitlCardDraft,
  type HitlCardView,
  type HitlResolvedPayload,
  type ToolConfirmation,
} from '@youyou/contracts';
import type { Kysely } from 'kysely';
import type { WorkbenchDatabase, Schema } from '../database/index.ts';
import { ApiError, notFound } from '../errors/index.ts';
import type { EventLog, NewEvent } from '../events/index.ts';
import type { ServerLogger } from '../logging/index.ts';
import { RunRepository } from '../storage/index.ts';
import type { RunBinding } from '../run-bindings/index.ts';
import { cardViewOfRow, HitlCardRepository, type HitlCardRow } from './card-repository.ts';
import { detachedCard, type CardSubjectHandler, type DetachedCardOptions } from './detached-card.ts';
import type { FreeInputClassifier } from './free-input-classifier.ts';
import { routeByRules, type RouteDecision } from './free-input-rules.ts';

/** Starts the text of a superseding reply as a new turn, after the waiting run has ended. */
export type StartNewRequest = (
  conversationId: string,
  supersededRunId: string,
  text: string,
) => Promise<string>;

export interface HitlServiceOptions {
  database: WorkbenchDatabase;
  eventLog: EventLog;
  logger: ServerLogger;
  /** Tells the server that executes `runId` that its card was resolved (several servers). */
  notifyRemote?: (runId: string, cardId: string) => Promise<void>;
  classifier?: FreeInputClassifier;
  /**
   * For free input: why an installed intent matches (the card is then superseded by a new
   * request), or undefined.
   */
  intentRouter?: (text: string) => string | undefined;
  /** Starts the new request that supersedes a waiting turn (the run manager). */
  startNewRequest?: StartNewRequest;
  /** What answering a detached card's subject does (a memory candidate: memory decides it). */
  subjectHandler?: CardSubjectHandler;
}

interface Waiter {
  resolve: (resolution: HitlResolvedPayload) => void;
}

/** What `ask` needs besides the card. */
export interface AskOptions {
  callId: string;
  confirmation?: ToolConfirmation;
}

/**
 * The HITL card lifecycle (spec §4.3 hitl, §4.5): a run raises a card and its tool call waits on a
 * promise — no polling, no tool timeout, the card's `timeoutSec` governs — while the run is
 * `waiting_hitl`; one answer per card wins (a conditional update), every bad answer is a
 * structured 4xx, free text is routed (rules, then the lightweight model, else an answer), and
 * `hitl.request` / `hitl.resolved` events tell every tab.
 *
 * @example
 * const resolution = await hitl.ask(binding, draft, { callId });
 * await hitl.answer(conversationId, cardId, { answer: { type: 'choice', choice_id: 'md' } });
 */
export class HitlService {
  readonly #options: HitlServiceOptions;
  readonly #cards: HitlCardRepository;
  readonly #waiters = new Map<string, Waiter>();

  constructor(options: HitlServiceOptions) {
    this.#options = options;
    this.#cards = new HitlCardRepository(options.database.db);
  }

  get repository(): HitlCardRepository {
    return this.#cards;
  }

  /**
   * Shows a card and waits for its resolution. The run is `waiting_hitl` meanwhile; a cancelled
   * run cancels the card, an interrupted one (the server stopping) expires it.
   */
  async ask(binding: RunBinding, draft: HitlCardDraft, options: AskOptions): Promise<HitlResolvedPayload> {
    const id = randomUUID();
    const now = Date.now();
    // The profile's timeout bounds every card of its runs; a card's own shorter one stands.
    const limits = [draft.timeoutSec ?? null, binding.hitlTimeoutSec].filter(
      (limit): limit is number => limit !== null,
    );
    const timeoutSec = limits.length === 0 ? null : Math.min(...limits);
    const card: HitlCard = {
      id,
      run_id: binding.messageRunId,
      question: draft.question,
      kind: draft.kind,
      choices: draft.choices ?? [],
      allowFreeInput: draft.kind === 'input' ? true : (draft.allowFreeInput ?? draft.kind !== 'form'),
      ...(draft.freeInputHint === undefined ? {} : { freeInputHint: draft.freeInputHint }),
      timeoutSec,
      ...(draft.fields === undefined ? {} : { fields: draft.fields }),
      ...(options.confirmation === undefined ? {} : { confirmation: options.confirmation }),
      ...(binding.subagent === undefined ? {} : { subagent: binding.subagent }),
      ...(timeoutSec === null ? {} : { expires_at: new Date(now + timeoutSec * 1000).toISOString() }),
      created_at: new Date(now).toISOString(),
    };
    let settle!: (resolution: HitlResolvedPayload) => void;
    const settled = new Promise<HitlResolvedPayload>((resolve) => (settle = resolve));
    this.#waiters.set(id, { resolve: settle });
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      const interrupted = binding.interrupted();
      void this.#endPending(binding.conversationId, id, {
        status: interrupted ? 'expired' : 'cancelled',
        reason: interrupted ? 'The server stopped while the card waited.' : 'The run was cancelled.',
      });
    };
    try {
      await binding.append(
        [
          {
            run_id: binding.messageRunId,
            type: 'hitl.request',
            payload: { message_id: binding.messageRunId, call_id: options.callId, card },
          },
          {
            run_id: binding.messageRunId,
            type: 'run.phase',
            payload: { phase: 'acting', status: 'waiting_hitl' },
          },
        ],
        async (transaction) => {
          await this.#cards.insert(
            {
              id,
              conversation_id: binding.conversationId,
              run_id: binding.messageRunId,
              message_id: binding.messageRunId,
              call_id: options.callId,
              kind: card.kind,
              card: JSON.stringify(card),
              status: 'pending',
              resolution: null,
              client_key: null,
              instance_id: null,
              created_at: now,
              expires_at: timeoutSec === null ? null : now + timeoutSec * 1000,
              resolved_at: null,
            },
            transaction,
          );
          for (const runId of new Set([binding.runId, binding.messageRunId])) {
            await new RunRepository(transaction).setState(runId, { status: 'waiting_hitl' }, transaction);
          }
        },
      );
      if (binding.signal.aborted) onAbort();
      else binding.signal.addEventListener('abort', onAbort, { once: true });
      if (timeoutSec !== null) {
        timer = setTimeout(() => {
          void this.#endPending(binding.conversationId, id, {
            status: 'expired',
            reason: `No answer within ${timeoutSec} s.`,
          });
        }, timeoutSec * 1000);
      }
      const resolution = await settled;
      if (!binding.signal.aborted && resolution.status !== 'superseded') {
        // Not awaited (issue 28: the card → next model request path): the conversation's writer
        // commits it before anything the run appends after it, the tool's result among them, in
        // one transaction when they meet, and no event is sent to a client before its commit.
        binding
          .append(
            [
              {
                run_id: binding.messageRunId,
                type: 'run.phase',
                payload: { phase: 'acting', status: 'running' },
              },
            ],
            async (transaction) => {
              for (const runId of new Set([binding.runId, binding.messageRunId])) {
                await new RunRepository(transaction).setState(runId, { status: 'running' }, transaction);
              }
            },
          )
          .catch((error: unknown) =>
            this.#options.logger.warn(
              { err: error, runId: binding.runId, cardId: id },
              'the run could not be stored as running again after its card',
            ),
          );
      }
      return resolution;
    } finally {
      clearTimeout(timer);
      binding.signal.removeEventListener('abort', onAbort);
      this.#waiters.delete(id);
    }
  }

  /**
   * Shows a card no tool call waits on, for a message whose run has ended (a memory candidate):
   * the same pending-card store, `hitl.request` event and answer route as every card, but the run
   * keeps its status and the answer goes to the subject handler.
   *
   * @example
   * await hitl.raiseDetached({ conversationId, messageId: runId, draft, subject: { type: 'memory.candidate', id } });
   */
  async raiseDetached(options: DetachedCardOptions): Promise<HitlCard> {
    const { card, row } = detachedCard(options, Date.now());
    await this.#options.eventLog.transact(options.conversationId, async (transaction, insert) => {
      await this.#cards.insert(row, transaction);
      await insert([
        {
          run_id: row.run_id,
          type: 'hitl.request',
          payload: { message_id: row.message_id, call_id: row.call_id, card },
        },
      ]);
    });
    return card;
  }

  async list(conversationId: string, status?: HitlCardView['status']): Promise<HitlCardView[]> {
    return (await this.#cards.list(conversationId, status)).map(cardViewOfRow);
  }

  async get(conversationId: string, cardId: string): Promise<HitlCardView> {
    return cardViewOfRow(await this.#cardOf(conversationId, cardId));
  }

  /**
   * Answers a card: validated against it, routed when it is free text, stored once (409 with the
   * first answer afterwards, unless the same client key repeats the call).
   */
  async answer(
    conversationId: string,
    cardId: string,
    request: HitlAnswerRequest,
  ): Promise<HitlAnswerResult> {
    const row = await this.#cardOf(conversationId, cardId);
    const clientKey = request.client_key ?? null;
    if (row.status !== 'pending') return this.#alreadyResolved(row, clientKey);
    const card = JSON.parse(row.card) as HitlCard;
    const { answer } = request;
    let resolution: HitlResolvedPayload;
    if (answer.type === 'text') {
      resolution = await this.#routeText(card, row, answer.text);
    } else {
      this.#validate(card, answer);
      if (card.subject !== undefined) await this.#decideSubject(row, card, answer, clientKey);
      resolution = {
        message_id: row.message_id,
        card_id: row.id,
        status: 'answered',
        answer,
        resolved_at: new Date().toISOString(),
      };
    }
    const won = await this.#store(conversationId, row, resolution, clientKey);
    if (!won) return this.#alreadyResolved((await this.#cards.find(row.id)) ?? row, clientKey);
    if (resolution.route?.path === 'new_request' && answer.type === 'text') {
      const start = this.#options.startNewRequest;
      if (start !== undefined) {
        // The run is cancelled before its tool call wakes, so it never asks the model again.
        const newRunId = await start(conversationId, row.run_id, answer.text);
        await this.#wake(row, resolution);
        return {
          card: cardViewOfRow({
            ...row,
            status: 'superseded',
            resolution: JSON.stringify(resolution),
            client_key: clientKey,
          }),
          replayed: false,
          new_run_id: newRunId,
        };
      }
    }
    await this.#wake(row, resolution);
    return {
      card: cardViewOfRow({
        ...row,
        status: resolution.status,
        resolution: JSON.stringify(resolution),
        client_key: clientKey,
      }),
      replayed: false,
    };
  }

  /**
   * "Allow for this conversation" answered on `answered`: the other cards of the conversation that
   * still wait for the same tool (two sub-agents asking at once) are answered the same way, each
   * with its own `hitl.resolved` naming the card that decided it, and their calls wake. The policy
   * calls this after it stored the grant, so a card raised before the grant is swept here and one
   * raised after finds the grant. Returns the ids of the cards it answered.
   */
  async answerTwins(conversationId: string, toolName: string, answered: string): Promise<string[]> {
    const twins = (await this.#cards.list(conversationId, 'pending')).filter(
      (row) =>
        row.id !== answered &&
        row.kind === 'confirm' &&
        (JSON.parse(row.card) as HitlCard).confirmation?.tool_name === toolName,
    );
    const resolved: string[] = [];
    for (const row of twins) {
      const resolution: HitlResolvedPayload = {
        message_id: row.message_id,
        card_id: row.id,
        status: 'answered',
        answer: { type: 'confirm', confirmed: true, scope: 'conversation' },
        answered_with_card_id: answered,
        resolved_at: new Date().toISOString(),
      };
      // One that was answered meanwhile keeps its own answer.
      if (await this.#store(conversationId, row, resolution, null)) {
        await this.#wake(row, resolution);
        resolved.push(row.id);
      }
    }
    return resolved;
  }

  /**
   * Gives up on a pending card on the user's behalf (an AG-UI client abandoning an interrupt): it
   * expires with `reason`, and the model gets "no answer" as for a timeout. A card that is no
   * longer pending is left as it is.
   */
  async abandon(conversationId: string, cardId: string, reason: string): Promise<HitlCardView> {
    const row = await this.#cardOf(conversationId, cardId);
    if (row.status === 'pending') {
      const resolution: HitlResolvedPayload = {
        message_id: row.message_id,
        card_id: row.id,
        status: 'expired',
        reason,
        resolved_at: new Date().toISOString(),
      };
      // The run may be waiting on this server or another one: wake it where it is.
      if (await this.#store(conversationId, row, resolution, null)) await this.#wake(row, resolution);
    }
    return this.get(conversationId, cardId);
  }

  /** Another server resolved a card this one waits on. */
  async wakeFromRemote(cardId: string): Promise<void> {
    const waiter = this.#waiters.get(cardId);
    if (waiter === undefined) return;
    const row = await this.#cards.find(cardId);
    if (row?.resolution !== null && row?.resolution !== undefined) {
      waiter.resolve(JSON.parse(row.resolution) as HitlResolvedPayload);
    }
  }

  /**
   * Expires the pending cards of a run that ended without them (a crash or restart: spec §4.2, no
   * transparent resumption), inside the caller's transaction; returns the events to insert.
   */
  async expireCardsOfRun(runId: string, reason: string, transaction: Kysely<Schema>): Promise<NewEvent[]> {
    const events: NewEvent[] = [];
    for (const row of await this.#cards.pendingOfRun(runId, transaction)) {
      const resolution: HitlResolvedPayload = {
        message_id: row.message_id,
        card_id: row.id,
        status: 'expired',
        reason,
        resolved_at: new Date().toISOString(),
      };
      if (await this.#cards.resolve(row.id, resolution, null, transaction)) {
        events.push({ run_id: runId, type: 'hitl.resolved', payload: resolution });
      }
    }
    return events;
  }

  async #decideSubject(
    row: HitlCardRow,
    card: HitlCard,
    answer: HitlAnswer,
    clientKey: string | null,
  ): Promise<void> {
    const handler = this.#options.subjectHandler;
    if (handler === undefined || card.subject === undefined)
      throw new ApiError('INVALID_ANSWER', 'Nothing here can take the answer to this card.', {
        details: { card_id: card.id },
      });
    try {
      await handler(card.subject, answer, card);
    } catch (error) {
      // Another tab decided the subject first: this answer lost, as a second answer to a card does.
      if (error instanceof ApiError && error.code === 'CONFLICT') {
        this.#alreadyResolved((await this.#cards.find(row.id)) ?? row, clientKey);
      }
      throw error;
    }
  }

  async #cardOf(conversationId: string, cardId: string): Promise<HitlCardRow> {
    const row = await this.#cards.find(cardId);
    // A card of another conversation is not found here: ids do not leak across conversations.
    if (row === undefined || row.conversation_id !== conversationId) throw notFound('card', cardId);
    return row;
  }

  #alreadyResolved(row: HitlCardRow, clientKey: string | null): HitlAnswerResult {
    const view = cardViewOfRow(row);
    if (clientKey !== null && row.client_key === clientKey) return { card: view, replayed: true };
    throw new ApiError('CARD_ALREADY_RESOLVED', `The card ${row.id} is already ${row.status}.`, {
      details: { card_id: row.id, status: row.status, resolution: view.resolution },
    });
  }

  #validate(card: HitlCard, answer: Exclude<HitlAnswer, { type: 'text' }>): void {
    const invalid = (message: string, details: Record<string, unknown> = {}): ApiError =>
      new ApiError('INVALID_ANSWER', message, {
        details: { card_id: card.id, kind: card.kind, answer_type: answer.type, ...details },
      });
    switch (answer.type) {
      case 'choice':
        if (card.kind !== 'choice') throw invalid(`A ${card.kind} card takes no choice.`);
        if (!card.choices.some((choice) => choice.id === answer.choice_id)) {
          throw invalid(`'${answer.choice_id}' is not an option of this card.`, {
            choice_id: answer.choice_id,
            choices: card.choices.map((choice) => choice.id),
          });
        }
        return;
      case 'confirm':
        if (card.kind !== 'confirm') throw invalid(`A ${card.kind} card takes no yes/no answer.`);
        if (answer.scope === 'conversation' && card.confirmation === undefined) {
          throw invalid('"Allow for this conversation" applies to tool confirmations only.');
        }
        return;
      case 'form': {
        if (card.kind !== 'form') throw invalid(`A ${card.kind} card takes no form values.`);
        const problems = formValueProblems(card.fields ?? [], answer.values);
        if (problems.length > 0) {
          throw invalid(
            `The form values do not fit the form: ${problems.map((problem) => `${problem.path} ${problem.message}`).join('; ')}.`,
            { problems },
          );
        }
        return;
      }
    }
  }

  async #routeText(card: HitlCard, row: HitlCardRow, text: string): Promise<HitlResolvedPayload> {
    if (!card.allowFreeInput) {
      throw new ApiError('INVALID_ANSWER', 'This card takes no free input; pick one of its answers.', {
        details: { card_id: card.id, kind: card.kind, answer_type: 'text' },
      });
    }
    let decision: RouteDecision | undefined = routeByRules(card, text);
    // An installed extension's intent that the text asks for starts a new request (none: T0).
    const intent = decision === undefined ? this.#options.intentRouter?.(text) : undefined;
    if (intent !== undefined) decision = { path: 'new_request', by: 'rule', reason: intent };
    if (decision === undefined && this.#options.classifier !== undefined) {
      try {
        decision = await this.#options.classifier(card, text, {
          conversationId: row.conversation_id,
          signal: AbortSignal.timeout(20_000),
        });
      } catch (error) {
        this.#options.logger.warn(
          { err: error, cardId: card.id },
          'the lightweight model could not route free input',
        );
        decision = {
          path: 'answer',
          by: 'default',
          reason: 'the lightweight model failed; taken as an answer',
        };
      }
    }
    decision ??= {
      path: 'answer',
      by: 'default',
      reason: 'no rule matched and no lightweight model decided; taken as an answer',
    };
    const route: FreeInputRoute = {
      path: decision.path,
      by: decision.by,
      reason: decision.reason,
      ...(decision.choice_id === undefined ? {} : { choice_id: decision.choice_id }),
    };
    const base = {
      message_id: row.message_id,
      card_id: row.id,
      free_text: text,
      route,
      resolved_at: new Date().toISOString(),
    };
    if (decision.path === 'new_request')
      return { ...base, status: 'superseded', reason: 'The user sent another request.' };
    if (decision.path === 'choice' && decision.choice_id !== undefined) {
      return { ...base, status: 'answered', answer: { type: 'choice', choice_id: decision.choice_id } };
    }
    if (decision.path === 'choice' && decision.confirmed !== undefined) {
      return {
        ...base,
        status: 'answered',
        answer: {
          type: 'confirm',
          confirmed: decision.confirmed,
          ...(decision.confirmed
            ? { scope: card.confirmation === undefined ? 'once' : (decision.scope ?? 'once') }
            : {}),
        },
      };
    }
    if (card.kind === 'confirm') {
      // Words that are neither yes nor no on a confirm card: the user did not agree; the text says why.
      return { ...base, status: 'answered', answer: { type: 'confirm', confirmed: false, reason: text } };
    }
    return { ...base, status: 'answered', answer: { type: 'text', text } };
  }

  async #store(
    conversationId: string,
    row: HitlCardRow,
    resolution: HitlResolvedPayload,
    clientKey: string | null,
  ): Promise<boolean> {
    return this.#options.eventLog.transact(conversationId, async (transaction, insert) => {
      if (!(await this.#cards.resolve(row.id, resolution, clientKey, transaction))) return false;
      await insert([{ run_id: row.run_id, type: 'hitl.resolved', payload: resolution }]);
      return true;
    });
  }

  async #wake(row: HitlCardRow, resolution: HitlResolvedPayload): Promise<void> {
    const waiter = this.#waiters.get(row.id);
    if (waiter !== undefined) {
      waiter.resolve(resolution);
      return;
    }
    await this.#options
      .notifyRemote?.(row.run_id, row.id)
      .catch((error: unknown) =>
        this.#options.logger.warn(
          { err: error, cardId: row.id },
          'the server running the card could not be told',
        ),
      );
  }

  /** Cancels or expires a card that is still pending, and wakes its waiter. */
  async #endPending(
    conversationId: string,
    cardId: string,
    end: { status: 'expired' | 'cancelled'; reason: string },
  ): Promise<void> {
    try {
      const row = await this.#cards.find(cardId);
      if (row === undefined) return;
      const resolution: HitlResolvedPayload = {
        message_id: row.message_id,
        card_id: cardId,
        status: end.status,
        reason: end.reason,
        resolved_at: new Date().toISOString(),
      };
      const won = await this.#store(conversationId, row, resolution, null);
      const final = won
        ? resolution
        : (JSON.parse((await this.#cards.find(cardId))?.resolution ?? 'null') as HitlResolvedPayload | null);
      if (final !== null) this.#waiters.get(cardId)?.resolve(final);
    } catch (error) {
      this.#options.logger.error({ err: error, cardId }, 'a card could not be ended');
      this.#waiters.get(cardId)?.resolve({
        message_id: '',
        card_id: cardId,
        status: end.status,
        reason: end.reason,
        resolved_at: new Date().toISOString(),
      });
    }
  }
}
