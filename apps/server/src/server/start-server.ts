import { ContextService, knowledgeSlotOf } from '../context/index.ts';
import { decisionOfAnswer, MemoryService, registerMemorySettings } from '../memory/index.ts';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { AgentPool } from '../agents/index.ts';
import {
  ArtifactService,
  artifactTools,
  documentTemplateCatalog,
  overflowPlugin,
  TEMPLATE_TOOL_NAME,
  templateTool,
} from '../artifacts/index.ts';
import {
  Cluster,
  liveInstancesOf,
  lockDataDirectory,
  sendControlMessage,
  type ControlMessageBody,
} from '../cluster/index.ts';
import { isPostgresUrl, migrateToLatest, openDatabase, type WorkbenchDatabase } from '../database/index.ts';
import { DocumentService, parseWithPolicy } from '../documents/index.ts';
import { EventHub, EventLog } from '../events/index.ts';
import { documentTemplatesOf, ExtensionHost } from '../extensions/index.ts';
import { HitlService, lightweightClassifier, type LightweightModel } from '../hitl/index.ts';
import { PlanboardRepository } from '../planboard/index.ts';
import { createApp, type ServerServices } from '../http/index.ts';
import { ApiError } from '../errors/index.ts';
import { createLogger } from '../logging/index.ts';
import {
  McpManager,
  McpServerRepository,
  registerMcpSettings,
  storingMcpMedia,
  type StoreMedia,
} from '../mcp/index.ts';
import { ProviderRegistry } from '../providers/index.ts';
import { CommandRegistry, LibraryService } from '../library/index.ts';
import { ModelRouting } from '../models/index.ts';
import { contextPolicyOf, DEFAULT_PARSE_POLICY, documentFormatOf, toolDecision } from '@youyou/contracts';
import { ProfileService } from '../profiles/index.ts';
import {
  endLeftoverProcesses,
  markProcessOwnership,
  OWNER_VARIABLE,
  RunManager,
  type RunContext,
} from '../runs/index.ts';
import { SubagentManager } from '../subagents/index.ts';
import {
  ConfigYamlLayer,
  registerBuiltinSettings,
  RESTART_REPORT_FILE,
  SettingsRegistry,
  SettingsService,
} from '../settings/index.ts';
import { isLoopbackAddress, loadAccessToken, TOKEN_FILE } from '../security/index.ts';
import {
  ConversationRepository,
  loadSecretKey,
  ObjectStore,
  ProjectRepository,
  RunRepository,
  SecretStore,
  SettingsRepository,
  UploadRepository,
  UsageRepository,
  WorkbenchSessionStorage,
} from '../storage/index.ts';
import {
  RunBindings,
  ToolAuditRepository,
  ToolCatalog,
  ToolGrantRepository,
  WorkbenchToolset,
} from '../tools/index.ts';
import { showCardTool, UiActionRunner, UiSurfaceRegistry } from '../ui-surfaces/index.ts';
import { WorkbenchStream } from '../workbench-stream/index.ts';
import { createKnowledge, knowledgeTools } from '../knowledge/index.ts';
import { SERVER_VERSION } from '../version/index.ts';
import { resolveServerOptions, type ServerOptions } from './server-options.ts';

/** A running workbench server. */
export interface RunningServer {
  /** `http://host:port`. */
  readonly url: string;
  /** The URL that signs a browser in (sets the token cookie). */
  readonly loginUrl: string;
  readonly token: string;
  readonly port: number;
  readonly instanceId: string;
  readonly services: ServerServices;
  /** Interrupts running runs, flushes events, closes connections and the database. */
  close(): Promise<void>;
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

async function listen(
  app: { fetch: (request: Request) => Response | Promise<Response> },
  host: string,
  port: number,
): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(server));
    server.once('error', reject);
  });
}

/**
 * Starts the workbench: database (migrated), cluster membership, recovery of interrupted runs,
 * then HTTP + SSE on one port.
 *
 * @example
 * const server = await startServer({ port: 0, dataDirectory: '/tmp/workbench', home: '/tmp/home' });
 * console.log(server.loginUrl);
 * await server.close();
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const settings = resolveServerOptions(options);
  const { logger, redactor } = createLogger({
    level: settings.logLevel,
    ...(settings.logDestination === undefined ? {} : { destination: settings.logDestination }),
    ...(settings.prettyLogs === undefined ? {} : { pretty: settings.prettyLogs }),
  });
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async (): Promise<void> => {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  };
  try {
    await mkdir(settings.dataDirectory, { recursive: true, mode: 0o700 });
    const scratchDirectory = join(settings.dataDirectory, 'workspace');
    await mkdir(scratchDirectory, { recursive: true, mode: 0o700 });
    const token = await loadAccessToken(join(settings.dataDirectory, TOKEN_FILE));
    redactor.add(token);
    if (settings.databaseUrl !== undefined) redactor.add(new URL(settings.databaseUrl).password);
    const databaseUrl = settings.databaseUrl;
    if (!isPostgresUrl(databaseUrl)) cleanups.push(await lockDataDirectory(settings.dataDirectory));
    // Tools of a server killed with -9 run on; end them before its runs are marked interrupted,
    // and tag what this server starts so the next one can do the same.
    await endLeftoverProcesses({ dataDirectory: settings.dataDirectory, logger });
    await markProcessOwnership(settings.dataDirectory);
    // MCP's stdio servers start from a minimal environment; the marker is added back for them.
    const owner = process.env[OWNER_VARIABLE];
    const ownerEnvironment = () => (owner === undefined ? {} : { [OWNER_VARIABLE]: owner });
    const database: WorkbenchDatabase = openDatabase(
      isPostgresUrl(databaseUrl)
        ? { databaseUrl }
        : { sqliteFile: join(settings.dataDirectory, 'youyou.db') },
    );
    cleanups.push(() => database.close());
    if (settings.migrate) {
      const { applied } = await migrateToLatest(database);
      if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    }
    const instanceId = randomUUID();
    const hub = new EventHub();
    const eventLog = new EventLog({
      database,
      hub,
      instanceId,
      deltaIntervalMs: settings.deltaIntervalMs,
      onDeltaFailure: (conversationId, error) =>
        logger.error({ err: error, conversationId }, 'deltas could not be stored'),
    });
    const secrets = new SecretStore(
      database.db,
      await loadSecretKey(join(settings.dataDirectory, 'secret.key')),
    );
    const providers = new ProviderRegistry(database.db, secrets, redactor);
    const sessionStorage = new WorkbenchSessionStorage({ database, eventLog });
    const settingsRepository = new SettingsRepository(database.db);
    const bindings = new RunBindings();
    // What several servers on one database tell each other goes through the database alone, so
    // the services that send are built before the cluster that listens (joined last).
    const sendControl = (message: ControlMessageBody) => sendControlMessage(database, instanceId, message);
    const workbenchStream = new WorkbenchStream({
      forward: (eventType, payload) => {
        sendControl({ type: 'workbench-event', event_type: eventType, payload }).catch((error: unknown) =>
          logger.warn({ err: error }, 'a workbench event could not reach the other servers'),
        );
      },
    });
    const settingsRegistry = new SettingsRegistry();
    registerBuiltinSettings(settingsRegistry);
    registerMcpSettings(settingsRegistry);
    registerMemorySettings(settingsRegistry);
    const settingsService = new SettingsService({
      db: database.db,
      registry: settingsRegistry,
      configYaml: new ConfigYamlLayer(settings.home),
      secrets,
      stream: workbenchStream,
      redactor,
      restartFile: join(settings.dataDirectory, RESTART_REPORT_FILE),
    });
    await settingsService.captureStartup();
    const routing = new ModelRouting(providers, settingsService);
    const profiles = new ProfileService(database.db);
    const conversations = new ConversationRepository(database.db, database.dialect);
    // Two true cycles are closed by functions that reach an object built below: a card's free
    // input may start an extension's intent or a new run (extensions and runs need HITL first).
    // Both are called only once the server serves requests.
    const lightweight: LightweightModel = {
      isSet: (context) => routing.lightweightAvailable(context),
      complete: (request, context) => routing.complete('lightweight', request, context),
    };
    const hitl: HitlService = new HitlService({
      database,
      eventLog,
      logger,
      classifier: lightweightClassifier(lightweight),
      notifyRemote: (runId, cardId) => sendControl({ type: 'hitl_resolved', run_id: runId, card_id: cardId }),
      intentRouter: (text) => {
        const found = extensions.intents.ruleRequest(text);
        return found === undefined
          ? undefined
          : `matches the intent '${found.match.intent_id}' of ${found.match.source}`;
      },
      // A memory candidate's card decides it (memory is built below).
      subjectHandler: async (subject, answer) => {
        await memory.decide(subject.id, decisionOfAnswer(answer));
      },
      startNewRequest: async (conversationId, supersededRunId, text) => {
        await runs.cancel(supersededRunId, 'superseded');
        // Another server may still be ending the superseded run: wait for its slot.
        for (let attempt = 0; ; attempt++) {
          try {
            // Free input an extension's intent asks for starts that intent (its workflow, its command).
            const request = extensions.intents.ruleRequest(text)?.request ?? text;
            return (await runs.send(conversationId, { text: request })).run.id;
          } catch (error) {
            if (!(error instanceof ApiError && error.code === 'CONVERSATION_BUSY') || attempt >= 100)
              throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      },
    });
    const catalog = new ToolCatalog(settingsRepository, {
      mutatingDefault: settings.mutatingToolPolicy,
      // The confirm list of a conversation's profile comes before each tool's own policy (issue 30).
      profileLists: async (conversationId) => {
        const conversation = await conversations.find(conversationId);
        if (conversation === undefined) return undefined;
        const profile =
          (conversation.profile_id === null ? undefined : await profiles.find(conversation.profile_id)) ??
          (await profiles.get('default'));
        return profile.tools;
      },
    });
    const grants = new ToolGrantRepository(database.db);
    const planboards = new PlanboardRepository(database.db);
    const toolset = new WorkbenchToolset({
      database,
      settings: settingsRepository,
      catalog,
      bindings,
      hitl,
      grants,
      planboards,
    });
    const artifacts = new ArtifactService({ database, eventLog });
    const workbenchTools = artifactTools(artifacts);
    // Artifacts are the workbench's own versioned documents: no confirmation by default.
    toolset.register(workbenchTools, { internal: true });
    const knowledge = createKnowledge({
      database,
      artifacts,
      providers,
      setting: (key) => settingsService.value<string | null>(key),
      logger,
      instanceId,
    });
    const knowledgeToolset = knowledgeTools({ knowledge, bindings });
    workbenchTools.push(...knowledgeToolset);
    toolset.register(knowledgeToolset, { internal: true });
    const workbenchPlugins = [
      overflowPlugin({ artifacts, budgetBytes: settings.toolResultBudgetBytes, logger }),
    ];
    const mcp = new McpManager({
      repository: new McpServerRepository(database.db, secrets, redactor),
      projectDirectory: async (projectId) =>
        (await new ProjectRepository(database.db).find(projectId))?.directory ?? undefined,
      logger,
      clientVersion: SERVER_VERSION,
      defaultCwd: scratchDirectory,
      setting: (key, projectId) => settingsService.value(key, { projectId }),
      ...(settings.mcpRestartBaseMs === undefined ? {} : { restartBaseMs: settings.mcpRestartBaseMs }),
      ...(settings.mcpCancelGraceMs === undefined ? {} : { cancelGraceMs: settings.mcpCancelGraceMs }),
      processEnvironment: ownerEnvironment,
    });
    cleanups.push(() => mcp.shutdown());
    // An MCP tool's images and audio become uploads of the conversation its run belongs to.
    const storeToolMedia: StoreMedia = async (context, media) => {
      const binding = bindings.get(context.sessionId);
      if (binding === undefined) return undefined;
      const id = randomUUID();
      const row = {
        id,
        owner: null,
        project_id: binding.projectId,
        conversation_id: binding.conversationId,
        name: media.name,
        media_type: media.mediaType,
        size: media.bytes.byteLength,
        sha256: createHash('sha256').update(media.bytes).digest('hex'),
        storage_path: await objects.put('uploads', id, media.bytes),
        created_at: Date.now(),
      };
      await new UploadRepository(database.db).insert(row);
      return { upload_id: id, name: row.name, media_type: row.media_type, size: row.size };
    };
    const objects = new ObjectStore(join(settings.dataDirectory, 'objects'));
    const documents = new DocumentService({
      database,
      eventLog,
      objects,
      logger,
      instanceId,
      liveInstances: () => liveInstancesOf(database, instanceId),
    });
    cleanups.push(() => documents.close());
    const uiSurfaces = new UiSurfaceRegistry();
    const commands = new CommandRegistry();
    const extensions: ExtensionHost = new ExtensionHost({
      database,
      // An ordinary message the rules do not recognise goes to the lightweight model with the
      // intent catalog, where that is turned on (one model call more per message).
      intentModel: {
        isSet: async (context) =>
          (await settingsService.value<boolean>('models.intent_gate', context)) === true &&
          (await lightweight.isSet(context)),
        complete: lightweight.complete,
      },
      dataDirectory: settings.dataDirectory,
      knowledge,
      settingsRegistry,
      settingsService,
      commands,
      catalog,
      stream: workbenchStream,
      logger,
      // Parsers extensions ship join ingest's registry under their source tags.
      parsers: documents.registry,
      surfaces: uiSurfaces,
      workflows: {
        hitl,
        bindings,
        planboards,
        // A prompt step asks the conversation's chat model.
        complete: (text, context) =>
          routing.complete(
            'chat',
            { systemPrompt: '', text, signal: context.signal },
            { projectId: context.projectId, conversationId: context.conversationId },
          ),
      },
    });
    await extensions.start();
    cleanups.push(() => extensions.close());
    const pool = new AgentPool({
      providers,
      sessionStorage,
      home: settings.home,
      logger,
      idleMs: settings.agentIdleMs,
      tools: () => workbenchTools,
      plugins: () => workbenchPlugins,
      componentSources: ({ projectId }) => [
        catalog.tagSource(storingMcpMedia(mcp.componentSource(projectId), storeToolMedia), 'mcp'),
        extensions.componentSource(),
      ],
      // Extension tools join the built-in ones; what extensions provide is part of the fingerprint.
      extensions: {
        components: async () => {
          const components = await toolset.components();
          return { ...components, tools: [...components.tools, ...(await extensions.tools())] };
        },
        wrapSource: (source) => toolset.wrapSource(source),
        fingerprint: async () => `${await toolset.fingerprint()}|${extensions.fingerprint}`,
      },
    });
    cleanups.push(() => pool.shutdown());
    // Parsed uploads go into the project's knowledge (spec §4.11 → §4.12).
    knowledge.connectDocuments(documents);
    // Extensions' knowledge packs are read as uploads are: ingest's parsers under the default policy.
    await knowledge.connectPackParser(async (input, signal) => {
      const format = documentFormatOf(input.name, input.media_type);
      if (format === null)
        return {
          ok: false,
          failure: {
            reason: 'wrong_type',
            message: `${input.name} is not a format the workbench reads.`,
            parser: null,
            details: {},
          },
        };
      const { result } = await parseWithPolicy({
        registry: documents.registry,
        policy: DEFAULT_PARSE_POLICY,
        input: { ...input, format },
        signal,
        progress: () => {},
      });
      return result;
    });
    // Memory (spec §4.13, off by default) and context assembly (spec §4.10).
    const memory = new MemoryService({
      database,
      settings: settingsService,
      logger,
      complete: (request, context) => routing.complete('lightweight', request, context),
      // Memory candidates are confirmed on HITL cards (spec §4.13 reuses the card protocol).
      raiseCard: async (candidate, card) => {
        await hitl.raiseDetached({
          conversationId: candidate.conversation_id,
          messageId: candidate.run_id,
          draft: { kind: 'form', question: card.question, fields: card.fields },
          subject: { type: 'memory.candidate', id: candidate.id },
        });
      },
    });
    const contextAssembly = new ContextService({
      db: database.db,
      logger,
      memory: {
        forInjection: (query, projectId) => memory.forInjection(query, projectId),
        touch: (ids) => memory.repository.touch(ids),
      },
      // The knowledge slot: passages of the project's knowledge for the turn's message (spec §4.12).
      knowledge: knowledgeSlotOf(knowledge.indexRetriever),
    });
    const maxUploadBytes =
      options.maxUploadBytes ?? (await settingsService.value<number>('server.max_upload_mb')) * 1024 * 1024;
    const runContext: RunContext = {
      database,
      eventLog,
      pool,
      sessionStorage,
      objects,
      providers,
      settings: settingsRepository,
      settingsService,
      profiles,
      routing,
      instanceId,
      home: settings.home,
      scratchDirectory,
      logger,
      redact: (text) => redactor.redact(text),
      artifacts,
      knowledge,
      bindings,
      hitl,
      contextAssembly,
      memory,
      documents,
      // `/weather report for Oslo` with no such skill: an installed intent's request, if one matches.
      slashIntent: (text) => extensions.intents.ruleRequest(text)?.request,
      // An ordinary message: the entry gate (rules, then the lightweight model).
      messageIntent: extensions.intents,
      // The intent catalog and the document templates, for the chat model.
      toolAvailable: (name) =>
        name !== TEMPLATE_TOOL_NAME || documentTemplatesOf(extensions.activeExtensions()).length > 0,
      promptSections: () =>
        [
          extensions.intents.catalog(),
          documentTemplateCatalog(documentTemplatesOf(extensions.activeExtensions())),
        ].filter((section) => section !== ''),
      // `/city-report city=Oslo`: an extension's workflow command starts its workflow directly.
      workflowCommand: (text) => extensions.workflowCommand(text),
      // The run manager and the sub-agent manager are each other's: a run records its tools with
      // the sub-agent manager, which starts child runs through the run manager.
      subagents: {
        registerRun: (runId, tools) => subagents.registerRun(runId, tools),
        forgetRun: (runId) => subagents.forgetRun(runId),
      },
    };
    const runs = new RunManager(runContext, {
      cancelRemote: (runId) => sendControl({ type: 'cancel', run_id: runId }),
    });
    const subagents = new SubagentManager({
      context: runContext,
      runs,
      options: settings.subagents,
      buildAgent: (options) => pool.buildDetached(options),
      // spawn_agent's profile_id names an agent profile: its prompt, model and tool lists.
      resolveProfile: async (profileId) => {
        const profile = await profiles.find(profileId);
        if (profile === undefined) return undefined;
        return {
          name: profile.name,
          ...(profile.systemPrompt.trim() === '' ? {} : { instructions: profile.systemPrompt }),
          ...('id' in profile.model ? { model_id: profile.model.id } : {}),
          allowTool: (name) => toolDecision(profile.tools, name) !== 'deny',
          context: contextPolicyOf(profile.context.assembly),
          hitlTimeoutSec: profile.hitl.timeoutSec,
        };
      },
    });
    // Documents from the installed extensions' templates: Markdown artifacts, or Word files kept
    // as files of the conversation (they list with its artifacts).
    const fromTemplate = templateTool({
      artifacts,
      templates: () => documentTemplatesOf(extensions.activeExtensions()),
      saveFile: async (scope, file) => {
        const id = randomUUID();
        await new UploadRepository(database.db).insert({
          id,
          owner: null,
          project_id: scope.projectId,
          conversation_id: scope.conversationId,
          name: file.name,
          media_type: file.mediaType,
          size: file.bytes.byteLength,
          sha256: createHash('sha256').update(file.bytes).digest('hex'),
          storage_path: await objects.put('uploads', id, file.bytes),
          created_at: Date.now(),
        });
        return { id };
      },
    });
    workbenchTools.push(fromTemplate);
    toolset.register([fromTemplate], { internal: true });
    const spawnTool = subagents.spawnTool();
    workbenchTools.push(spawnTool);
    // A sub-agent's own tool calls pass the confirmation policy in its agent: spawning needs none.
    toolset.register([spawnTool], { internal: true });
    const cardTool = showCardTool({ bindings });
    workbenchTools.push(cardTool);
    // A card only shows what the model already wrote: no confirmation by default.
    toolset.register([cardTool], { internal: true });
    const cluster = await Cluster.join({
      database,
      instanceId,
      hub,
      logger,
      onControl: (message) => {
        if (message.type === 'cancel') runs.cancelLocal(message.run_id);
        if (message.type === 'hitl_resolved' && message.card_id !== undefined)
          void hitl.wakeFromRemote(message.card_id);
        if (message.type === 'workbench-event') workbenchStream.deliver(message.event_type, message.payload);
      },
    });
    cleanups.push(() => cluster.leave());
    const live = await cluster.liveInstances();
    const interrupted = await runs.recover(live);
    const requeued = await documents.recover(live);
    if (requeued > 0)
      logger.info({ requeued }, 'documents left unparsed by a stopped server are queued again');
    await cluster.prune(live);
    if (interrupted > 0)
      logger.warn({ interrupted }, 'runs left unfinished by a stopped server are marked interrupted');
    let sweeping = false;
    const sweeper = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      cluster
        .liveInstances()
        .then(async (live) => {
          await runs.recover(live);
          const documentsRequeued = await documents.recover(live);
          if (documentsRequeued > 0)
            logger.info({ requeued: documentsRequeued }, 'documents of a stopped server are queued again');
          const itemsRequeued = await knowledge.recover(live);
          if (itemsRequeued > 0)
            logger.info({ requeued: itemsRequeued }, 'knowledge items of a stopped server are queued again');
        })
        .catch((error: unknown) => logger.warn({ err: error }, 'the recovery sweep failed'))
        .finally(() => (sweeping = false));
    }, settings.sweepIntervalMs);
    sweeper.unref();
    cleanups.push(async () => clearInterval(sweeper));

    const toolAudit = new ToolAuditRepository(database.db);
    const services: ServerServices = {
      database,
      eventLog,
      hub,
      runs,
      runRepository: new RunRepository(database.db),
      providers,
      pool,
      mcp,
      objects,
      settings: settingsRepository,
      settingsService,
      workbenchStream,
      profiles,
      routing,
      library: new LibraryService(database.db),
      commands,
      extensions,
      projects: new ProjectRepository(database.db),
      conversations,
      uploads: new UploadRepository(database.db),
      documents,
      artifacts,
      knowledge,
      subagents,
      usage: new UsageRepository(database.db),
      hitl,
      uiSurfaces,
      uiActions: new UiActionRunner({
        registry: uiSurfaces,
        catalog,
        home: settings.home,
        audit: { repository: toolAudit, conversations, grants },
      }),
      catalog,
      audit: toolAudit,
      grants,
      planboards,
      memory,
      contextAssembly,
      logger,
      redact: (text) => redactor.redact(text),
      instanceId,
      version: SERVER_VERSION,
      startedAt: Date.now(),
      config: {
        token,
        dataDirectory: settings.dataDirectory,
        home: settings.home,
        workspaceRoots: settings.workspaceRoots,
        allowedHosts: settings.allowedHosts,
        maxJsonBytes: settings.maxJsonBytes,
        maxUploadBytes,
        heartbeatMs: settings.heartbeatMs,
        stallTimeoutMs: settings.stallTimeoutMs,
        webRoot: settings.webRoot,
        secure: false,
      },
    };
    const knowledgeRequeued = await knowledge.start(await cluster.liveInstances());
    if (knowledgeRequeued > 0)
      logger.info(
        { requeued: knowledgeRequeued },
        'knowledge items left by a stopped server are queued again',
      );
    cleanups.push(() => knowledge.stop());
    const server = await listen(createApp(services), settings.host, settings.port);
    const port = (server.address() as AddressInfo).port;
    const url = `http://${displayHost(settings.host)}:${port}`;
    if (!isLoopbackAddress(settings.host)) {
      logger.warn(
        { host: settings.host },
        'listening on a non-loopback address: anyone who can reach this port and has the token can run tools on this machine',
      );
    }
    logger.info(
      { url, database: database.dialect, instanceId, dataDirectory: settings.dataDirectory },
      'listening',
    );
    let closing: Promise<void> | undefined;
    return {
      url,
      loginUrl: `${url}/?token=${token}`,
      token,
      port,
      instanceId,
      services,
      close: () => {
        closing ??= (async () => {
          server.close();
          await runs.shutdown();
          await eventLog.flushAll();
          if ('closeAllConnections' in server) server.closeAllConnections();
          await cleanup();
          logger.info({ instanceId }, 'stopped');
        })();
        return closing;
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
