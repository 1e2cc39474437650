import type { UiWidgets } from '../ui-schema/index.ts';
import { DataSection } from '../archive/index.ts';
import { LibrarySection, ProfilesSection } from '../customise/index.ts';
import { KnowledgeSection } from '../knowledge/index.ts';
import { MemorySection } from '../memory/index.ts';
import { SetupBundleSection } from '../setup-bundle/index.ts';
import { AppearanceSection, BehaviourSection, LanguageSection } from './appearance-section.tsx';
import { ComponentsSection } from './components-section.tsx';
import { ExtensionsSection } from './extensions-section.tsx';
import { McpSection } from './mcp-section.tsx';
import { ProvidersSection } from './providers-section.tsx';
import { SettingRow } from './setting-row.tsx';
import { SETTING_WIDGET } from './settings-document.ts';
import { ToolsSection } from './tools-section.tsx';
import { UsageSection } from './usage-section.tsx';

/**
 * The settings centre's custom widgets (spec §4.9): what a section of the schema names as its
 * `widget` — the lists and editors a plain setting cannot be — and the `setting` widget that draws
 * every setting. A section naming a widget that is not here shows the renderer's placeholder.
 */
export const SETTINGS_WIDGETS: UiWidgets = {
  [SETTING_WIDGET]: SettingRow,
  providers: ProvidersSection,
  profiles: ProfilesSection,
  library: LibrarySection,
  components: ComponentsSection,
  tools: ToolsSection,
  mcp: McpSection,
  extensions: ExtensionsSection,
  memory: MemorySection,
  knowledge: KnowledgeSection,
  appearance: AppearanceSection,
  behaviour: BehaviourSection,
  language: LanguageSection,
  usage: UsageSection,
  data: DataSection,
  'setup-bundle': SetupBundleSection,
};
