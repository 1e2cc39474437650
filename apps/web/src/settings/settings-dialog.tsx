import type { ReactElement } from 'react';
import { useTranslation, type MessageKey } from '../i18n/index.ts';
import { CloseIcon } from '../icons/index.ts';
import { SETTINGS_SECTIONS, useNavigation, type SettingsSection } from '../navigation/index.ts';
import { Dialog } from '../ui/index.ts';
import { AppearanceSection, BehaviourSection, LanguageSection } from './appearance-section.tsx';
import { LibrarySection, ProfilesSection, SchemaSettingsSection } from '../customise/index.ts';
import { ComponentsSection } from './components-section.tsx';
import { ExtensionsSection } from './extensions-section.tsx';
import { McpSection } from './mcp-section.tsx';
import { ToolsSection } from './tools-section.tsx';
import { ProvidersSection } from './providers-section.tsx';
import { UsageSection } from './usage-section.tsx';
import { DataSection } from '../archive/index.ts';
import { MemorySection } from '../memory/index.ts';
import { KnowledgeSection } from '../knowledge/index.ts';
import { SetupBundleSection } from '../setup-bundle/index.ts';
import './settings.css';

/** Each section's label; exported so the docs' "Settings → …" pointers can be checked against it. */
export const SECTION_LABELS: Record<SettingsSection, MessageKey> = {
  providers: 'settings.providers',
  preferences: 'settings.schema',
  profiles: 'settings.profiles',
  library: 'settings.library',
  components: 'settings.components',
  tools: 'settings.tools',
  mcp: 'settings.mcp',
  extensions: 'settings.extensions',
  memory: 'settings.memory',
  knowledge: 'settings.knowledge',
  appearance: 'settings.appearance',
  behaviour: 'settings.behaviour',
  language: 'settings.language',
  usage: 'settings.usage',
  data: 'settings.data',
  'setup-bundle': 'settings.setupBundle',
};

function SectionContent({ section }: { section: SettingsSection }): ReactElement {
  switch (section) {
    case 'providers':
      return <ProvidersSection />;
    case 'preferences':
      return <SchemaSettingsSection />;
    case 'profiles':
      return <ProfilesSection />;
    case 'library':
      return <LibrarySection />;
    case 'components':
      return <ComponentsSection />;
    case 'tools':
      return <ToolsSection />;
    case 'mcp':
      return <McpSection />;
    case 'extensions':
      return <ExtensionsSection />;
    case 'memory':
      return <MemorySection />;
    case 'knowledge':
      return <KnowledgeSection />;
    case 'appearance':
      return <AppearanceSection />;
    case 'behaviour':
      return <BehaviourSection />;
    case 'language':
      return <LanguageSection />;
    case 'usage':
      return <UsageSection />;
    case 'data':
      return <DataSection />;
    case 'setup-bundle':
      return <SetupBundleSection />;
  }
}

/** Settings (spec §4.4): models, components, appearance, behaviour, language; a modal with sections. */
export function SettingsDialog(): ReactElement {
  const t = useTranslation();
  const section = useNavigation((state) => state.settings);
  const openSettings = useNavigation((state) => state.openSettings);
  const closeSettings = useNavigation((state) => state.closeSettings);
  return (
    <Dialog
      open={section !== undefined}
      title={t('settings.title')}
      onClose={closeSettings}
      className="settings-dialog"
    >
      <div className="settings-layout">
        <nav className="settings-nav" aria-label={t('settings.title')}>
          <h2 className="settings-title">{t('settings.title')}</h2>
          {SETTINGS_SECTIONS.map((item) => (
            <button
              key={item}
              type="button"
              className={`settings-nav-item${item === section ? ' active' : ''}`}
              aria-current={item === section ? 'page' : undefined}
              onClick={() => openSettings(item)}
            >
              {t(SECTION_LABELS[item])}
            </button>
          ))}
        </nav>
        <div className="settings-content">
          <button
            type="button"
            className="icon-button settings-close"
            aria-label={t('settings.close')}
            onClick={closeSettings}
          >
            <CloseIcon />
          </button>
          {section !== undefined && <SectionContent section={section} />}
        </div>
      </div>
    </Dialog>
  );
}
