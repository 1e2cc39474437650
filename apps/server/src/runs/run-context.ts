import type { AgentPool } from '../agents/index.ts';
import type { ArtifactService } from '../artifacts/index.ts';
import type { KnowledgeService } from '../knowledge/index.ts';
import type { ContextService } from '../context/index.ts';
import type { MemoryService } from '../memory/index.ts';
import type { WorkbenchDatabase } from '../database/index.ts';
import type { DocumentService } from '../documents/index.ts';
import type { EventLog } from '../events/index.ts';
import type { ServerLogger } from '../logging/index.ts';
import type { ModelRouting } from '../models/index.ts';
import type { ProfileService } from '../profiles/index.ts';
import type { ProviderRegistry } from '../providers/index.ts';
import type { HitlService } from '../hitl/index.ts';
import type { SettingsService } from '../settings/index.ts';
import type { ObjectStore, SettingsRepository, WorkbenchSessionStorage } from '../storage/index.ts';
import type { RunBindings } from '../tools/index.ts';
import type { MessageIntentGate } from './message-intent.ts';
import type { WorkflowCommandCall } from './workflow-command.ts';

/** What runs need from the server. */
export interface RunContext {
  database: WorkbenchDatabase;
  eventLog: EventLog;
  pool: AgentPool;
  sessionStorage: WorkbenchSessionStorage;
  objects: ObjectStore;
  providers: ProviderRegistry;
  settings: SettingsRepository;
  settingsService: SettingsService;
  profiles: ProfileService;
  routing: ModelRouting;
  instanceId: string;
  /** The YouYou home (global components); the agent may read files there. */
  home: string;
  /** The working directory of conversations whose project has no directory. */
  scratchDirectory: string;
  logger: ServerLogger;
  /** Known secrets and key-shaped strings out of text that is about to be stored or sent. */
  redact(text: string): string;
  artifacts: ArtifactService;
  /** The knowledge index: `@` references to documents and knowledge resolve through it. */
  knowledge?: KnowledgeService;
  /** What the workbench's tools know of the runs this server executes. */
  bindings: RunBindings;
  /** HITL cards: a run that ends without its card expires it. */
  hitl: HitlService;
  /** Builds each model request from slots and stores what the model saw (spec §4.10). */
  contextAssembly?: ContextService;
  /** Memory (spec §4.13): candidates after a completed run. */
  memory?: MemoryService;
  /** Parsed documents: attachments reach the model as their parsed text (`documentForModel`). */
  documents?: DocumentService;
  /** Learns which tools each run's agent has (a sub-agent gets a subset of its parent's). */
  subagents?: RunToolRegistry;
  /**
   * `/` recognition by installed intents (spec §4.6): for a message that starts with `/` and that
   * no skill took, the request an intent makes of it, or undefined (T0: the text goes as typed).
   */
  slashIntent?: (text: string) => string | undefined;
  /**
   * The entry gate for ordinary messages (spec §4.6): the installed intent a message asks for
   * (rules, then the lightweight model). Absent: T0.
   */
  messageIntent?: MessageIntentGate;
  /**
   * Sections for the system prompt's "Additional context" as a run starts: what installed
   * extensions offer the model (the intent catalog, the document templates); none: T0.
   */
  promptSections?: () => string[];
  /**
   * False for a workbench tool that has nothing to work on now (`create_from_template` with no
   * template installed): the model does not see it, so T0 requests stay as they were.
   */
  toolAvailable?: (toolName: string) => boolean;
  /**
   * An installed extension's workflow command (`/city-report city=Oslo`): the workflow's tool and
   * its arguments, which the run calls without asking the model; undefined for any other text.
   */
  workflowCommand?: (text: string) => WorkflowCommandCall | undefined;
}

/** Where runs report the tools their agent was built with. */
export interface RunToolRegistry {
  registerRun(runId: string, tools: readonly string[]): void;
  forgetRun(runId: string): void;
}
