import type { SettingScope, SettingsSchemaResponse, WritableSettingLayer } from '@youyou/contracts';
import { useMemo, useState, type ReactElement } from 'react';
import { useEffectiveSettings } from '../customise/index.ts';
import { useResolvedLanguage, useTranslation } from '../i18n/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { UiDocumentView } from '../ui-schema/index.ts';
import { pageHasSettings, settingsPageDocument } from './settings-document.ts';
import { SettingsScopeContext, type SettingsScope } from './settings-scope.ts';
import { SETTINGS_WIDGETS } from './settings-widgets.ts';

/** Where a page's settings are written: everyone (user), the current project or conversation. */
function LayerChoice(props: {
  layer: WritableSettingLayer;
  onChange: (layer: WritableSettingLayer) => void;
}): ReactElement {
  const t = useTranslation();
  const projectId = useNavigation((state) => state.projectId);
  const conversationId = useNavigation((state) => state.lastConversationId);
  const layers: { value: WritableSettingLayer; label: string; available: boolean }[] = [
    { value: 'user', label: t('schema.scope.user'), available: true },
    { value: 'project', label: t('schema.scope.project'), available: projectId !== undefined },
    { value: 'conversation', label: t('schema.scope.conversation'), available: conversationId !== undefined },
  ];
  return (
    <fieldset className="choice-group">
      <legend>{t('schema.scope')}</legend>
      <div className="segmented">
        {layers.map((option) => (
          <label key={option.value} className={`segment${option.value === props.layer ? ' checked' : ''}`}>
            <input
              type="radio"
              name="settings-layer"
              value={option.value}
              disabled={!option.available}
              checked={option.value === props.layer}
              onChange={() => props.onChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * One page of the settings centre, drawn from the schema alone (spec §4.1 rule 3, §4.9): its title,
 * then a UI document — its widget, its settings, its sections — drawn by the same renderer as
 * extension panels, cards and HITL forms. Settings are written at the layer chosen on top.
 */
export function SettingsPage(props: { schema: SettingsSchemaResponse; pageId: string }): ReactElement {
  const t = useTranslation();
  const language = useResolvedLanguage();
  const projectId = useNavigation((state) => state.projectId);
  const conversationId = useNavigation((state) => state.lastConversationId);
  const [layer, setLayer] = useState<WritableSettingLayer>('user');
  const effective = useEffectiveSettings(
    layer === 'conversation' ? { conversationId } : layer === 'project' ? { projectId } : {},
  );
  const page = props.schema.sections.find((section) => section.id === props.pageId);
  const document = useMemo(
    () => settingsPageDocument(props.schema, props.pageId, language),
    [props.schema, props.pageId, language],
  );
  const withSettings = pageHasSettings(props.schema, props.pageId);
  const scope = useMemo<SettingsScope>(() => {
    const scopeId = layer === 'conversation' ? conversationId : layer === 'project' ? projectId : undefined;
    const target: SettingScope = scopeId === undefined ? { layer } : { layer, scope_id: scopeId };
    return {
      target,
      definitions: new Map(props.schema.settings.map((definition) => [definition.key, definition])),
      effective: new Map((effective.data?.settings ?? []).map((entry) => [entry.key, entry])),
    };
  }, [conversationId, effective.data, layer, projectId, props.schema.settings]);
  const headingId = `settings-page-${props.pageId}`;
  return (
    <section aria-labelledby={headingId} className="settings-page" data-page={props.pageId}>
      <h2 id={headingId}>{page?.label[language] ?? props.pageId}</h2>
      {withSettings && page?.widget === undefined && <p className="settings-intro">{t('schema.intro')}</p>}
      {withSettings && <LayerChoice layer={layer} onChange={setLayer} />}
      <SettingsScopeContext.Provider value={scope}>
        <UiDocumentView
          key={props.pageId}
          schema={document}
          target={{ kind: 'settings', id: props.pageId, source: 'builtin' }}
          widgets={SETTINGS_WIDGETS}
        />
      </SettingsScopeContext.Provider>
    </section>
  );
}
