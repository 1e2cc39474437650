import { readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { DEFAULT_AGENT_CONFIG, type AgentConfig } from '@youyou/agent';
import {
  CONFIG_FILE,
  listFileComponents,
  scanFileComponents,
  type FileComponentEntry,
  type FileLoadDiagnostic,
} from '@youyou/agent/files';
import type { CliArguments } from './cli-arguments.ts';
import { table, type CliIo } from './cli-io.ts';
import { EXIT_CODES, type ExitCode } from './exit-codes.ts';

/**
 * What `youyou doctor --json` prints.
 *
 * @example
 * const report = JSON.parse(stdout) as DoctorReport;
 * if (report.status !== 'ok') report.skipped.forEach((item) => console.log(item.path, item.reason));
 */
export interface DoctorReport {
  status: 'ok' | 'problems' | 'broken';
  home: string;
  cwd: string;
  /** `{cwd}/.youyou`, or null when it is the home itself. */
  projectLayer: string | null;
  components: FileComponentEntry[];
  /** Folders (or files) that were skipped, and why. */
  skipped: FileLoadDiagnostic[];
  /** Things that loaded with something ignored: unknown fields, misspelt hooks, unknown config keys. */
  warnings: FileLoadDiagnostic[];
  /** The effective settings: defaults, then config.yaml. */
  config: AgentConfig;
  /** Where each setting came from. */
  configSources: Record<string, 'default' | 'config.yaml'>;
  configFile: { path: string; error?: string };
  pluginToggles: Record<string, boolean>;
  /** Which instruction files were found; `projectFiles` in the order they are read. */
  instructions: {
    globalAgentMd: boolean;
    projectAgentMd: boolean;
    agentsMd: boolean;
    soulMd: boolean;
    projectFiles: string[];
  };
  /**
   * The workbench's settings that take effect only when its server restarts (spec §4.9), as the
   * server last wrote them to `{home}/workbench/settings-restart.json`; null when no server has run.
   */
  workbenchRestart: {
    file: string;
    startedAt: string;
    settings: { key: string; running: unknown; stored: unknown; pending: boolean }[];
  } | null;
}

async function readRestartReport(home: string): Promise<DoctorReport['workbenchRestart']> {
  const file = join(home, 'workbench', 'settings-restart.json');
  try {
    const report = JSON.parse(await readFile(file, 'utf8')) as {
      started_at?: string;
      settings?: { key: string; running: unknown; stored: unknown; pending: boolean }[];
    };
    return { file, startedAt: report.started_at ?? '', settings: report.settings ?? [] };
  } catch {
    return null;
  }
}

/**
 * `youyou doctor`: what loaded from which layer, what was skipped and why, and the effective
 * config. Exits 0 when everything loaded, 3 when folders were skipped, 1 when config.yaml is
 * broken (an agent would not build).
 *
 * @example
 * const code = await runDoctor(parseCliArguments(['doctor', '--json'], io), io);
 */
export async function runDoctor(options: CliArguments, io: CliIo): Promise<ExitCode> {
  const scan = await scanFileComponents({ cwd: options.cwd, home: options.home });
  const config = { ...DEFAULT_AGENT_CONFIG, ...scan.config } as AgentConfig;
  const configSources: Record<string, 'default' | 'config.yaml'> = {};
  for (const key of Object.keys(config)) configSources[key] = key in scan.config ? 'config.yaml' : 'default';
  const skipped = scan.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  const report: DoctorReport = {
    status: scan.configError !== undefined ? 'broken' : skipped.length > 0 ? 'problems' : 'ok',
    home: scan.home,
    cwd: scan.cwd,
    projectLayer: scan.projectDirectory ?? null,
    components: listFileComponents(scan),
    skipped,
    warnings: scan.diagnostics.filter((diagnostic) => diagnostic.severity === 'warning'),
    config,
    configSources,
    configFile: {
      path: join(scan.home, CONFIG_FILE),
      ...(scan.configError === undefined ? {} : { error: scan.configError.message }),
    },
    pluginToggles: scan.pluginToggles,
    instructions: {
      globalAgentMd: scan.globalInstructions !== undefined,
      projectAgentMd: scan.projectInstructionFiles.some((path) => path.endsWith(`.youyou${sep}AGENT.md`)),
      agentsMd: scan.projectInstructionFiles.some((path) => path.endsWith(`${sep}AGENTS.md`)),
      soulMd: scan.soul !== undefined,
      projectFiles: scan.projectInstructionFiles,
    },
    workbenchRestart: await readRestartReport(scan.home),
  };
  if (options.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout(formatDoctor(report));
  return report.status === 'ok'
    ? EXIT_CODES.ok
    : report.status === 'problems'
      ? EXIT_CODES.problems
      : EXIT_CODES.failed;
}

function formatDoctor(report: DoctorReport): string {
  const lines: string[] = [];
  lines.push(`Home           ${report.home}`);
  lines.push(
    `Project layer  ${report.projectLayer ?? '(the working directory holds the home; not read twice)'}`,
  );
  const present = (flag: boolean): string => (flag ? 'found' : 'none');
  lines.push(
    `Instructions   AGENT.md global: ${present(report.instructions.globalAgentMd)}, project: ${present(report.instructions.projectAgentMd)}; AGENTS.md: ${present(report.instructions.agentsMd)}; SOUL.md: ${present(report.instructions.soulMd)}`,
  );
  if (report.instructions.projectFiles.length > 0)
    lines.push(
      `               project instructions, in order: ${report.instructions.projectFiles.join(', ')}`,
    );
  lines.push('', `Components (${String(report.components.length)})`);
  if (report.components.length === 0) lines.push('  none');
  else
    lines.push(
      table(
        report.components.map((component) => [
          component.kind,
          component.name,
          component.layer,
          componentState(component),
          component.path ?? '',
        ]),
      ),
    );
  if (report.skipped.length > 0) {
    lines.push('', `Skipped (${String(report.skipped.length)})`);
    for (const diagnostic of report.skipped) lines.push(`  ${where(diagnostic)}`, `    ${diagnostic.reason}`);
  }
  if (report.warnings.length > 0) {
    lines.push('', `Warnings (${String(report.warnings.length)})`);
    for (const diagnostic of report.warnings)
      lines.push(`  ${where(diagnostic)}`, `    ${diagnostic.reason}`);
  }
  lines.push('', `Config (${report.configFile.path})`);
  if (report.configFile.error !== undefined) lines.push(`  BROKEN: ${report.configFile.error}`);
  lines.push(
    table(
      Object.entries(report.config).map(([key, value]) => [
        key,
        JSON.stringify(value) ?? 'undefined',
        report.configSources[key] ?? 'default',
      ]),
    ),
  );
  const toggles = Object.entries(report.pluginToggles);
  if (toggles.length > 0)
    lines.push('', 'Plugin toggles', table(toggles.map(([id, on]) => [id, on ? 'enabled' : 'disabled'])));
  const restart = report.workbenchRestart;
  if (restart !== null && restart.settings.length > 0) {
    const pending = restart.settings.filter((setting) => setting.pending);
    lines.push(
      '',
      `Workbench settings applied at restart (server started ${restart.startedAt}): ${pending.length === 0 ? 'none waiting' : `${String(pending.length)} waiting for a restart`}`,
      table(
        restart.settings.map((setting) => [
          setting.key,
          JSON.stringify(setting.stored) ?? 'null',
          setting.pending
            ? `restart needed (running ${JSON.stringify(setting.running) ?? 'null'})`
            : 'in effect',
        ]),
      ),
    );
  }
  lines.push('', `Status: ${report.status}`);
  return `${lines.join('\n')}\n`;
}

function componentState(component: FileComponentEntry): string {
  if (component.overriddenBy !== undefined) return `overridden by ${component.overriddenBy}`;
  return component.enabled ? 'active' : 'disabled';
}

function where(diagnostic: FileLoadDiagnostic): string {
  return diagnostic.line === undefined ? diagnostic.path : `${diagnostic.path}:${String(diagnostic.line)}`;
}
