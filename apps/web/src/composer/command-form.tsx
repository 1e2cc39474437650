import type { CommandDescriptor, CommandParameter } from '@youyou/contracts';
import { useState, type ReactElement } from 'react';
import { useResolvedLanguage, useTranslation } from '../i18n/index.ts';

/** Options a parameter is chosen from when the registry gives none (profiles for /profile). */
export type ParameterChoices = Readonly<Record<string, readonly { value: string; label: string }[]>>;

function initialValues(
  parameters: readonly CommandParameter[],
  choices: ParameterChoices,
): Record<string, string> {
  return Object.fromEntries(
    parameters.map((parameter) => [
      parameter.name,
      parameter.default === undefined
        ? parameter.type === 'enum'
          ? (parameter.enum?.[0] ?? '')
          : (choices[parameter.name]?.[0]?.value ?? '')
        : String(parameter.default),
    ]),
  );
}

/**
 * A command's parameter form inside the composer (spec §4.14): one field per parameter of its
 * schema — a macro's `{{variables}}`, /export's format, /profile's profile. Enter in the last
 * field (or the button) runs it; Escape closes it.
 */
export function CommandForm({
  command,
  choices,
  onRun,
  onCancel,
}: {
  command: CommandDescriptor;
  choices: ParameterChoices;
  onRun: (values: Readonly<Record<string, string>>) => void;
  onCancel: () => void;
}): ReactElement {
  const t = useTranslation();
  const language = useResolvedLanguage();
  const [values, setValues] = useState<Record<string, string>>(() =>
    initialValues(command.parameters, choices),
  );
  const missing = command.parameters.filter(
    (parameter) => parameter.required && (values[parameter.name] ?? '').trim() === '',
  );
  const run = (): void => {
    if (missing.length === 0) onRun(values);
  };
  return (
    <form
      className="command-form"
      aria-label={t('composer.commandForm', { name: command.name })}
      onSubmit={(event) => {
        event.preventDefault();
        run();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onCancel();
        }
      }}
    >
      <div className="command-form-head">
        <strong>/{command.name}</strong>
        <span className="palette-description">{command.description[language]}</span>
      </div>
      <div className="command-form-fields">
        {command.parameters.map((parameter, index) => {
          const label = parameter.label ?? parameter.name;
          const value = values[parameter.name] ?? '';
          const set = (next: string): void =>
            setValues((current) => ({ ...current, [parameter.name]: next }));
          const options =
            parameter.type === 'enum'
              ? (parameter.enum ?? []).map((option) => ({ value: option, label: option }))
              : choices[parameter.name];
          return (
            <label key={parameter.name} className="field">
              <span>{label}</span>
              {options !== undefined ? (
                <select
                  aria-label={label}
                  value={value}
                  onChange={(event) => set(event.target.value)}
                  autoFocus={index === 0}
                >
                  {options.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              ) : parameter.type === 'text' && command.source !== 'macro' && command.source !== 'mcp' ? (
                <textarea
                  aria-label={label}
                  rows={2}
                  value={value}
                  onChange={(event) => set(event.target.value)}
                  autoFocus={index === 0}
                />
              ) : (
                <input
                  aria-label={label}
                  type={parameter.type === 'number' ? 'number' : 'text'}
                  value={value}
                  placeholder={parameter.placeholder}
                  required={parameter.required}
                  onChange={(event) => set(event.target.value)}
                  autoFocus={index === 0}
                />
              )}
            </label>
          );
        })}
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          {t('nav.cancel')}
        </button>
        <button type="submit" className="button primary" disabled={missing.length > 0}>
          {command.source === 'macro' || command.source === 'mcp' ? t('composer.expand') : t('composer.run')}
        </button>
      </div>
    </form>
  );
}
