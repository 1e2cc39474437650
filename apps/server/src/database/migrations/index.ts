import { initialMigration } from './0001-initial.ts';
import { readCursorMigration } from './0002-read-cursor.ts';
import { hitlToolsPlanboardMigration } from './0010-hitl-tools-planboard.ts';
import { artifactsMigration } from './0020-artifacts-and-subagents.ts';
import { settingsKeysMigration } from './0030-settings-keys.ts';
import { profilesAndLibraryMigration } from './0031-profiles-and-library.ts';
import { mcpServersMigration } from './0040-mcp-servers.ts';
import { documentsMigration } from './0050-documents.ts';
import { knowledgeMigration } from './0055-knowledge.ts';
import { contextReportsAndMemoryMigration } from './0060-context-reports-and-memory.ts';
import { extensionsMigration } from './0070-extensions.ts';
import { usageCacheAndCostMigration } from './0080-usage-cache-and-cost.ts';
import { artifactTextCompressionMigration } from './0081-artifact-text-compression.ts';
import { knowledgeHeadingIndexMigration } from './0082-knowledge-heading-index.ts';
import { uiActionAuditMigration } from './0088-ui-action-audit.ts';
import { documentKnowledgeScopeMigration } from './0090-document-knowledge-scope.ts';
import { idempotencyKeysMigration } from './0094-idempotency-keys.ts';
import { documentClaimsMigration } from './0095-document-claims.ts';
import { knowledgeClaimsMigration } from './0096-knowledge-claims.ts';
import { messageSearchMigration } from './0100-message-search.ts';
import type { WorkbenchMigration } from './migration.ts';

export type { DialectName, WorkbenchMigration } from './migration.ts';

/** Every migration, oldest first. Add new ones at the end; never edit one that has shipped. */
export const MIGRATIONS: readonly WorkbenchMigration[] = [
  initialMigration,
  readCursorMigration,
  hitlToolsPlanboardMigration,
  artifactsMigration,
  settingsKeysMigration,
  profilesAndLibraryMigration,
  mcpServersMigration,
  documentsMigration,
  knowledgeMigration,
  contextReportsAndMemoryMigration,
  extensionsMigration,
  usageCacheAndCostMigration,
  artifactTextCompressionMigration,
  knowledgeHeadingIndexMigration,
  uiActionAuditMigration,
  documentKnowledgeScopeMigration,
  idempotencyKeysMigration,
  documentClaimsMigration,
  knowledgeClaimsMigration,
  messageSearchMigration,
];
