import { randomBytes } from 'node:crypto';
import type { WorkbenchDatabase } from '../database/index.ts';
import { ModelRouting } from '../models/index.ts';
import { ProfileService } from '../profiles/index.ts';
import { ProviderRegistry } from '../providers/index.ts';
import type { RunPlanServices } from '../runs/index.ts';
import {
  ConfigYamlLayer,
  registerBuiltinSettings,
  SettingsRegistry,
  SettingsService,
} from '../settings/index.ts';
import { SecretStore } from '../storage/index.ts';
import { WorkbenchStream } from '../workbench-stream/index.ts';

/**
 * The settings, profiles and model routing of a server, without the server: for benchmarks and
 * tests of run planning on a migrated database.
 *
 * @example
 * const services = settingsStack(database, home);
 * const plan = await planRun(services, { id: conversationId, profile_id: null });
 */
export function settingsStack(database: WorkbenchDatabase, home: string): RunPlanServices {
  const registry = new SettingsRegistry();
  registerBuiltinSettings(registry);
  const secrets = new SecretStore(database.db, randomBytes(32));
  const settings = new SettingsService({
    db: database.db,
    registry,
    configYaml: new ConfigYamlLayer(home),
    secrets,
    stream: new WorkbenchStream(),
  });
  return {
    settings,
    profiles: new ProfileService(database.db),
    routing: new ModelRouting(new ProviderRegistry(database.db, secrets), settings),
  };
}
