import { randomUUID } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import type { Transaction } from 'kysely';
import { isUniqueViolation, type Schema } from '../database/index.ts';
import type { MessageReference } from '@youyou/contracts';
import { resolveArtifactReferences } from '../artifacts/index.ts';
import { checkReferences } from '../knowledge/index.ts';
import { ApiError, notFound } from '../errors/index.ts';
import type { AttachmentReference, MessageInput, NewEvent } from '../events/index.ts';
import { ConversationTree } from '../conversations/conversation-tree.ts';
import {
  ConversationRepository,
  describeRun,
  ProjectRepository,
  RunRepository,
  runViewOfRow,
  UploadRepository,
  type ConversationRow,
  type RunRow,
  type RunView,
} from '../storage/index.ts';
import type { RunContext } from './run-context.ts';
import { RunExecution } from './run-execution.ts';
import { planRun, profileModel, type RunPlan } from './run-plan.ts';
import { generateTitle, titleFromText } from '../models/index.ts';
import { interruptRun } from './run-recovery.ts';

/** A message to send: text, uploads by id, skills, and where in the tree it goes. */
export interface SendRequest {
  text?: string;
  attachments?: string[];
  skills?: { name: string; arguments?: string }[];
  /** `@` references (spec §4.14), checked here and put into the turn's input when it runs. */
  references?: MessageReference[];
  model_id?: string;
  /** A user message to replace: the new one becomes its sibling (edit). */
  edit_of?: string;
  /** An assistant message to answer after (default: the end of the active branch). */
  parent_message_id?: string;
  /** The run to follow, or null for a new first message; the same as `parent_message_id` otherwise. */
  previous_run_id?: string | null;
}

/** What a caller of `send` adds to the run's own transaction. */
export interface SendOptions {
  /**
   * Runs in the transaction that creates the run, after its events are numbered: what is written
   * here commits with the run or not at all (an idempotency key's first answer, issue 27).
   */
  onCreated?: (transaction: Transaction<Schema>, created: Omit<SendResult, 'run'>) => Promise<void>;
}

/** A run this server executes: a turn, or a sub-agent. */
export interface ActiveExecution {
  readonly conversationId: string;
  cancel(reason?: 'user' | 'superseded'): void;
  interrupt(): void;
}

/** What `send` and `regenerate` return. */
export interface SendResult {
  run: RunView;
  user_message_id: string;
  assistant_message_id: string;
  /** The seq of the run's `run.created` event. */
  seq: number;
}

const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * Starts, cancels and recovers runs. One top-level run per conversation is in flight at a time
 * (the database enforces it for every server); runs of different conversations go in parallel.
 *
 * @example
 * const { run } = await runs.send(conversationId, { text: 'Hello' });
 * await runs.cancel(run.id);
 */
export class RunManager {
  readonly #context: RunContext;
  readonly #active = new Map<string, { execution: ActiveExecution; done: Promise<unknown> }>();
  #closing = false;

  /** Asks the server that executes `runId` to cancel it (several servers on one database). */
  readonly #cancelRemote: ((runId: string) => Promise<void>) | undefined;

  constructor(context: RunContext, options: { cancelRemote?: (runId: string) => Promise<void> } = {}) {
    this.#context = context;
    this.#cancelRemote = options.cancelRemote;
  }

  /**
   * Registers a run executed elsewhere in this server (a sub-agent), so cancels reach it, a
   * recovery sweep leaves it alone and shutdown interrupts it. Returns false while stopping.
   */
  track(runId: string, execution: ActiveExecution, done: Promise<unknown>): boolean {
    if (this.#closing) return false;
    this.#active.set(runId, { execution, done });
    const forget = (): void => {
      if (this.#active.get(runId)?.execution === execution) this.#active.delete(runId);
    };
    done.then(forget, forget);
    return true;
  }

  get closing(): boolean {
    return this.#closing;
  }

  /** Runs this server is executing now. */
  get activeRunIds(): string[] {
    return [...this.#active.keys()];
  }

  async send(conversationId: string, request: SendRequest, options: SendOptions = {}): Promise<SendResult> {
    const { database } = this.#context;
    const conversation = await new ConversationRepository(database.db, database.dialect).get(conversationId);
    const tree = new ConversationTree(await new RunRepository(database.db).tree(conversationId));
    let previous = conversation.active_run_id;
    if (request.edit_of !== undefined) {
      const edited = tree.runsOfUserMessage(request.edit_of)[0];
      if (edited === undefined) throw notFound('message', request.edit_of);
      previous = edited.previous_run_id;
    } else {
      const after = request.parent_message_id ?? request.previous_run_id;
      if (after === null) previous = null;
      else if (after !== undefined) {
        if (tree.run(after) === undefined) throw notFound('message', after);
        previous = after;
      }
    }
    const input = await this.#input(request, conversationId);
    if (input.references !== undefined)
      await checkReferences(input.references, {
        knowledge: this.#context.knowledge,
        artifacts: this.#context.artifacts,
        directory: await this.#cwd(conversation).then((cwd) =>
          cwd === this.#context.scratchDirectory ? null : cwd,
        ),
      });
    if (
      input.text.trim() === '' &&
      input.attachments.length === 0 &&
      input.skills.length === 0 &&
      (input.references ?? []).length === 0
    ) {
      throw new ApiError('INVALID_INPUT', 'A message needs text, an attachment or a skill.');
    }
    return this.#start(conversation, {
      input,
      previous,
      userMessageId: randomUUID(),
      modelId: request.model_id,
      ...(options.onCreated === undefined ? {} : { onCreated: options.onCreated }),
    });
  }

  /** A new answer to the user message of `assistantMessageId` (a sibling of that answer). */
  async regenerate(
    conversationId: string,
    assistantMessageId: string,
    modelId?: string,
  ): Promise<SendResult> {
    const { database, eventLog } = this.#context;
    const conversation = await new ConversationRepository(database.db, database.dialect).get(conversationId);
    const source = await new RunRepository(database.db).find(assistantMessageId);
    if (source === undefined || source.conversation_id !== conversationId || source.parent_run_id !== null) {
      throw notFound('message', assistantMessageId);
    }
    const created = (await eventLog.read(conversationId, { afterSeq: 0, runIds: [source.id], limit: 1 }))[0];
    if (created?.type !== 'run.created' || source.user_message_id === null) {
      throw new ApiError('INVALID_INPUT', 'That answer has no message to answer again.');
    }
    return this.#start(conversation, {
      input: created.payload.input,
      previous: source.previous_run_id,
      userMessageId: source.user_message_id,
      modelId: modelId ?? source.model_id ?? undefined,
      regeneratedFrom: source.id,
    });
  }

  /**
   * Cancels a run and everything below it; a run that has ended is returned as it is. `superseded`
   * when the user's reply to a waiting card was another request.
   */
  async cancel(runId: string, reason: 'user' | 'superseded' = 'user'): Promise<RunView> {
    const { database } = this.#context;
    const runs = new RunRepository(database.db);
    const run = await runs.get(runId);
    const targets = [run, ...(await runs.descendants(runId))].filter((candidate) =>
      ['pending', 'running', 'waiting_hitl'].includes(candidate.status),
    );
    for (const target of targets) {
      const local = this.#active.get(target.id);
      if (local !== undefined) {
        local.execution.cancel(reason);
        continue;
      }
      await runs.setState(target.id, { cancel_requested: 1 });
      if (target.instance_id !== this.#context.instanceId) {
        await this.#cancelRemote?.(target.id);
      }
    }
    const local = this.#active.get(runId);
    if (local !== undefined) await local.done;
    return runViewOfRow(await runs.get(runId));
  }

  /** A cancel request from another server for a run this one executes. */
  cancelLocal(runId: string): boolean {
    const local = this.#active.get(runId);
    local?.execution.cancel();
    return local !== undefined;
  }

  /** Stops the conversation's run (it is being deleted) and waits for it to end. */
  async stopConversation(conversationId: string): Promise<void> {
    const stopping = [...this.#active.values()].filter(
      ({ execution }) => execution.conversationId === conversationId,
    );
    for (const { execution } of stopping) execution.cancel();
    await Promise.allSettled(stopping.map(({ done }) => done));
  }

  /**
   * Runs left unfinished by a server that is gone become `interrupted`; so do runs of this server
   * that it no longer executes. Returns how many.
   */
  async recover(liveInstances: ReadonlySet<string>): Promise<number> {
    const unfinished = await new RunRepository(this.#context.database.db).unfinished();
    let count = 0;
    for (const run of unfinished) {
      const orphaned =
        run.instance_id === null ||
        !liveInstances.has(run.instance_id) ||
        (run.instance_id === this.#context.instanceId &&
          !this.#active.has(run.id) &&
          !this.#active.has(run.parent_run_id ?? ''));
      if (!orphaned) continue;
      try {
        await interruptRun(this.#context, run);
        count++;
      } catch (error) {
        this.#context.logger.error({ err: error, runId: run.id }, 'an interrupted run could not be marked');
      }
    }
    return count;
  }

  /** Ends every run this server executes as `interrupted` (a graceful stop) and waits for them. */
  async shutdown(timeoutMs = 10_000): Promise<void> {
    this.#closing = true;
    const running = [...this.#active.values()];
    for (const { execution } of running) execution.interrupt();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...running.map(({ done }) => done), ...this.#titling]),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
  }

  async #input(request: SendRequest, conversationId: string): Promise<MessageInput> {
    const { database, artifacts } = this.#context;
    const uploads = new UploadRepository(database.db);
    const attachments: AttachmentReference[] = [];
    // `@artifact:` references: written artifacts go in as text at run time; uploads as attachments.
    const referenced = await resolveArtifactReferences(
      artifacts,
      conversationId,
      request.text ?? '',
      async (reference) =>
        database.db
          .selectFrom('uploads')
          .select('id')
          .where('conversation_id', '=', conversationId)
          .where((expression) =>
            expression.or([expression('id', '=', reference), expression('name', '=', reference)]),
          )
          .executeTakeFirst(),
    );
    const uploadIds = [...(request.attachments ?? [])];
    for (const id of referenced.uploads) if (!uploadIds.includes(id)) uploadIds.push(id);
    for (const id of uploadIds) {
      const upload = await uploads.find(id);
      if (upload === undefined) throw notFound('upload', id);
      attachments.push({
        upload_id: upload.id,
        name: upload.name,
        media_type: upload.media_type,
        size: upload.size,
      });
    }
    for (const skill of request.skills ?? []) {
      if (!SKILL_NAME.test(skill.name)) {
        throw new ApiError('INVALID_INPUT', `'${skill.name}' is not a skill name.`, {
          details: { skill: skill.name },
        });
      }
    }
    return {
      text: request.text ?? '',
      attachments,
      skills: request.skills ?? [],
      ...(request.references === undefined || request.references.length === 0
        ? {}
        : { references: request.references }),
    };
  }

  async #model(conversation: ConversationRow, requested: string | undefined, plan: RunPlan): Promise<string> {
    const models = await this.#context.providers.models();
    if (models.length === 0) {
      throw new ApiError(
        'NO_MODEL_PROVIDER',
        'No model is set up yet: add a provider in Settings → Models (or refresh its models there).',
      );
    }
    const preferred =
      requested ??
      conversation.model_id ??
      (await profileModel(this.#planServices, plan.profile, conversation.id)) ??
      plan.chatModel ??
      models[0]?.id;
    if (!models.some((model) => model.id === preferred)) {
      throw new ApiError(
        'MODEL_NOT_SUPPORTED',
        `No configured provider serves the model '${preferred ?? ''}'.`,
        {
          details: { model_id: preferred, available: models.map((model) => model.id) },
        },
      );
    }
    return preferred as string;
  }

  /**
   * Replaces a first-line title with one by the lightweight model (spec §4.7), in the background:
   * the first line stays when no lightweight model is set (`titles.mode` auto), the setting says
   * first-line, the call fails, or the user renamed the conversation meanwhile.
   */
  #titleByModel(conversation: ConversationRow, text: string, firstLine: string): void {
    const { settingsService, routing, eventLog, logger } = this.#context;
    const context = { conversationId: conversation.id };
    const work = async (): Promise<void> => {
      const mode = await settingsService.value<string>('titles.mode', context);
      if (mode === 'first-line') return;
      if (mode === 'auto' && !(await routing.lightweightAvailable(context))) return;
      const title = await generateTitle(routing, text, context);
      if (title === undefined || title === firstLine) return;
      await eventLog.transact(conversation.id, async (transaction, insert) => {
        const updated = await transaction
          .updateTable('conversations')
          .set({ title })
          .where('id', '=', conversation.id)
          .where('title_source', '=', 'auto')
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) return;
        await insert([
          { run_id: null, type: 'conversation.updated', payload: { title, title_source: 'auto' } },
        ]);
      });
    };
    const pending = work().catch((error: unknown) =>
      logger.warn(
        { err: error, conversationId: conversation.id },
        'the lightweight model gave no title; the first line stays',
      ),
    );
    this.#titling.add(pending);
    void pending.finally(() => this.#titling.delete(pending));
  }

  get #planServices() {
    const { settingsService, profiles, routing } = this.#context;
    return { settings: settingsService, profiles, routing };
  }

  /** Titles being written by the lightweight model (awaited on shutdown). */
  readonly #titling = new Set<Promise<unknown>>();

  async #cwd(conversation: ConversationRow): Promise<string> {
    if (conversation.project_id !== null) {
      const project = await new ProjectRepository(this.#context.database.db).find(conversation.project_id);
      if (project?.directory !== null && project?.directory !== undefined) {
        return realpath(project.directory).catch(() => {
          throw new ApiError(
            'INVALID_INPUT',
            `The project directory ${project.directory ?? ''} is not there any more.`,
          );
        });
      }
    }
    return this.#context.scratchDirectory;
  }

  async #start(
    conversation: ConversationRow,
    plan: {
      input: MessageInput;
      previous: string | null;
      userMessageId: string;
      modelId: string | undefined;
      regeneratedFrom?: string;
      onCreated?: SendOptions['onCreated'];
    },
  ): Promise<SendResult> {
    if (this.#closing)
      throw new ApiError('SERVICE_UNAVAILABLE', 'The server is stopping.', { retryable: true });
    const { database, eventLog, instanceId } = this.#context;
    const runPlan = await planRun(this.#planServices, conversation);
    const modelId = await this.#model(conversation, plan.modelId, runPlan);
    const cwd = await this.#cwd(conversation);
    const now = Date.now();
    const run: RunRow = {
      id: randomUUID(),
      owner: null,
      conversation_id: conversation.id,
      project_id: conversation.project_id,
      parent_run_id: null,
      previous_run_id: plan.previous,
      user_message_id: plan.userMessageId,
      kind: 'conversation',
      profile_id: runPlan.profile.id,
      model_id: modelId,
      status: 'pending',
      phase: 'pending',
      error: null,
      usage: null,
      instance_id: instanceId,
      cancel_requested: 0,
      created_at: now,
      started_at: null,
      ended_at: null,
    };
    const title = conversation.title_source === 'none' ? titleFromText(plan.input.text) : '';
    const events: NewEvent[] = [
      {
        run_id: run.id,
        type: 'run.created',
        payload: {
          run: describeRun(run),
          input: plan.input,
          user_message_id: plan.userMessageId,
          assistant_message_id: run.id,
          ...(plan.regeneratedFrom === undefined ? {} : { regenerated_from: plan.regeneratedFrom }),
        },
      },
      {
        run_id: run.id,
        type: 'conversation.updated',
        payload: {
          active_run_id: run.id,
          in_flight_run_id: run.id,
          ...(title === '' ? {} : { title, title_source: 'auto' as const }),
        },
      },
    ];
    const storagePaths = new Map<string, string>();
    const uploads = new UploadRepository(database.db);
    for (const attachment of plan.input.attachments) {
      const upload = await uploads.find(attachment.upload_id);
      if (upload !== undefined) storagePaths.set(upload.id, upload.storage_path);
    }
    const execution = new RunExecution({
      context: this.#context,
      run,
      input: plan.input,
      storagePaths,
      cwd,
      titleFromAnswer: conversation.title_source === 'none' && title === '',
      plan: runPlan,
    });
    // Registered before the row exists, so a recovery sweep never takes it for an orphan.
    let started!: () => void;
    const gate = new Promise<void>((resolve) => (started = resolve));
    const done = gate
      .then(() => execution.run())
      .catch((error: unknown) => this.#context.logger.error({ err: error, runId: run.id }, 'a run crashed'))
      .finally(() => this.#active.delete(run.id));
    this.#active.set(run.id, { execution, done });
    let seq: number;
    try {
      seq = await eventLog.transact(conversation.id, async (transaction, insert) => {
        await transaction.insertInto('runs').values(run).execute();
        // An upload sent in a message belongs to its conversation: it is listed among its artifacts.
        const attached = plan.input.attachments.map((attachment) => attachment.upload_id);
        if (attached.length > 0) {
          await transaction
            .updateTable('uploads')
            .set({ conversation_id: conversation.id })
            .where('id', 'in', attached)
            .where('conversation_id', 'is', null)
            .execute();
          // Their documents (spec §4.11) learn the message they came with.
          await transaction
            .updateTable('documents')
            .set({ message_id: plan.userMessageId, conversation_id: conversation.id })
            .where('upload_id', 'in', attached)
            .where('message_id', 'is', null)
            .execute();
        }
        await new ConversationRepository(transaction, database.dialect).update(
          conversation.id,
          { active_run_id: run.id, ...(title === '' ? {} : { title, title_source: 'auto' }) },
          now,
          transaction,
        );
        const [created] = await insert(events);
        const createdSeq = created?.seq ?? 0;
        await plan.onCreated?.(transaction, {
          user_message_id: plan.userMessageId,
          assistant_message_id: run.id,
          seq: createdSeq,
        });
        return createdSeq;
      });
    } catch (error) {
      this.#active.delete(run.id);
      if (isUniqueViolation(error)) {
        throw new ApiError(
          'CONVERSATION_BUSY',
          'A run is already in flight in this conversation; wait for it or cancel it.',
          {
            details: { conversation_id: conversation.id },
            retryable: true,
          },
        );
      }
      throw error;
    }
    // Uploaded before the conversation existed: they join its project's knowledge now (0029).
    await this.#context.documents?.sentIn(
      plan.input.attachments.map((attachment) => attachment.upload_id),
      conversation.project_id,
    );
    this.#context.logger.info(
      { runId: run.id, conversationId: conversation.id, status: 'pending' },
      'run created',
    );
    started();
    if (title !== '') this.#titleByModel(conversation, plan.input.text, title);
    return { run: runViewOfRow(run), user_message_id: plan.userMessageId, assistant_message_id: run.id, seq };
  }
}
