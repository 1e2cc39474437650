import type { ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { useSettingsSchema } from '../customise/index.ts';
import { useResolvedLanguage, useTranslation } from '../i18n/index.ts';
import { CloseIcon } from '../icons/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { Dialog } from '../ui/index.ts';
import { settingsPages } from './settings-document.ts';
import { SettingsPage } from './settings-page.tsx';
import './settings.css';

/**
 * Settings (spec §4.4, §4.9): a modal whose pages — their names, order and content — are the
 * server's settings schema, each drawn by the UI-schema renderer (`SettingsPage`).
 */
export function SettingsDialog(): ReactElement {
  const t = useTranslation();
  const language = useResolvedLanguage();
  const section = useNavigation((state) => state.settings);
  const openSettings = useNavigation((state) => state.openSettings);
  const closeSettings = useNavigation((state) => state.closeSettings);
  const schema = useSettingsSchema();
  const pages = schema.data === undefined ? [] : settingsPages(schema.data);
  // A page that is gone (an extension removed since the link was made) shows the first one.
  const shown = pages.find((page) => page.id === section) ?? pages[0];
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
          {pages.map((item) => (
            <button
              key={item.id}
              type="button"
              className={`settings-nav-item${item.id === shown?.id ? ' active' : ''}`}
              aria-current={item.id === shown?.id ? 'page' : undefined}
              data-page={item.id}
              onClick={() => openSettings(item.id)}
            >
              {item.label[language]}
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
          {schema.isError && <p className="field-error">{errorMessage(schema.error)}</p>}
          {schema.isPending && <p className="empty-state">{t('app.loading')}</p>}
          {section !== undefined && schema.data !== undefined && shown !== undefined && (
            <SettingsPage schema={schema.data} pageId={shown.id} />
          )}
        </div>
      </div>
    </Dialog>
  );
}
