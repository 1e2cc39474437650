import { useState, type ReactElement } from 'react';
import { LANGUAGES } from '../i18n/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { FONT_SIZES, usePreferences, type Density, type ThemePreference } from '../preferences/index.ts';

function Choice<Value extends string>({
  name,
  legend,
  value,
  options,
  onChange,
}: {
  name: string;
  legend: string;
  value: Value;
  options: readonly { value: Value; label: string }[];
  onChange: (value: Value) => void;
}): ReactElement {
  return (
    <fieldset className="choice-group">
      <legend>{legend}</legend>
      <div className="segmented">
        {options.map((option) => (
          <label key={option.value} className={`segment${option.value === value ? ' checked' : ''}`}>
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Settings → Appearance: theme (light/dark/system), density, font size. */
export function AppearanceSection(): ReactElement {
  const t = useTranslation();
  const preferences = usePreferences();
  return (
    <div className="settings-widget" data-widget="appearance">
      <Choice<ThemePreference>
        name="theme"
        legend={t('appearance.theme')}
        value={preferences.theme}
        options={[
          { value: 'light', label: t('appearance.light') },
          { value: 'dark', label: t('appearance.dark') },
          { value: 'system', label: t('appearance.system') },
        ]}
        onChange={(theme) => preferences.set({ theme })}
      />
      <Choice<Density>
        name="density"
        legend={t('appearance.density')}
        value={preferences.density}
        options={[
          { value: 'comfortable', label: t('appearance.comfortable') },
          { value: 'compact', label: t('appearance.compact') },
        ]}
        onChange={(density) => preferences.set({ density })}
      />
      <Choice<string>
        name="font-size"
        legend={t('appearance.fontSize')}
        value={String(preferences.fontSize)}
        options={FONT_SIZES.map((size) => ({ value: String(size), label: `${String(size)}px` }))}
        onChange={(size) => preferences.set({ fontSize: Number(size) })}
      />
      <fieldset className="choice-group">
        <legend>{t('appearance.accent')}</legend>
        <div className="accent-row">
          <input
            type="color"
            aria-label={t('appearance.accent')}
            value={preferences.accent ?? '#4f46e5'}
            onChange={(event) => preferences.set({ accent: event.target.value })}
          />
          <button
            type="button"
            className="button"
            onClick={() => preferences.set({ accent: undefined })}
            disabled={preferences.accent === undefined}
          >
            {t('appearance.accentReset')}
          </button>
        </div>
      </fieldset>
    </div>
  );
}

/** Settings → Behaviour: send key, folding after a run, streaming animation. */
export function BehaviourSection(): ReactElement {
  const t = useTranslation();
  const preferences = usePreferences();
  const [blocked, setBlocked] = useState(
    () => typeof Notification !== 'undefined' && Notification.permission === 'denied',
  );
  return (
    <div className="settings-widget" data-widget="behaviour">
      <Choice
        name="send-key"
        legend={t('behaviour.sendKey')}
        value={preferences.sendKey}
        options={[
          { value: 'enter', label: t('behaviour.enter') },
          { value: 'ctrl-enter', label: t('behaviour.ctrlEnter') },
        ]}
        onChange={(sendKey) => preferences.set({ sendKey })}
      />
      <Choice
        name="fold"
        legend={t('behaviour.fold')}
        value={preferences.fold}
        options={[
          { value: 'fold', label: t('behaviour.foldAuto') },
          { value: 'keep', label: t('behaviour.foldKeep') },
        ]}
        onChange={(fold) => preferences.set({ fold })}
      />
      <label className="switch">
        <input
          type="checkbox"
          checked={preferences.streamingAnimation}
          onChange={(event) => preferences.set({ streamingAnimation: event.target.checked })}
        />
        <span>{t('behaviour.animation')}</span>
      </label>
      <label className="switch">
        <input
          type="checkbox"
          checked={preferences.notifyQuestions}
          onChange={(event) => {
            const notifyQuestions = event.target.checked;
            // Asked only when the person turns it on: the browser shows its own prompt.
            if (
              notifyQuestions &&
              typeof Notification !== 'undefined' &&
              Notification.permission === 'default'
            ) {
              void Notification.requestPermission().then(() =>
                setBlocked(Notification.permission === 'denied'),
              );
            }
            preferences.set({ notifyQuestions });
          }}
          data-testid="notify-questions"
        />
        <span>{t('behaviour.notifyQuestions')}</span>
      </label>
      {blocked && <p className="field-hint">{t('behaviour.notifyBlocked')}</p>}
    </div>
  );
}

/** Settings → Language: English or 简体中文, or follow the browser. */
export function LanguageSection(): ReactElement {
  const t = useTranslation();
  const language = usePreferences((state) => state.language);
  const set = usePreferences((state) => state.set);
  const names: Record<string, string> = { en: 'English', 'zh-CN': '简体中文' };
  return (
    <div className="settings-widget" data-widget="language">
      <Choice
        name="language"
        legend={t('language.label')}
        value={language ?? 'browser'}
        options={[
          { value: 'browser', label: t('language.browser') },
          ...LANGUAGES.map((value) => ({ value, label: names[value] ?? value })),
        ]}
        onChange={(value) => set({ language: value === 'en' || value === 'zh-CN' ? value : undefined })}
      />
    </div>
  );
}
