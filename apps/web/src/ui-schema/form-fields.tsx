import type { ReactElement } from 'react';
import type { FormField, FormValue } from '@youyou/contracts';

/** The initial value of each field: its default, or empty. */
export function initialValues(fields: readonly FormField[]): Record<string, FormValue> {
  return Object.fromEntries(
    fields.map((field) => [
      field.id,
      field.default ?? (field.type === 'checkbox' ? false : field.type === 'multiselect' ? [] : null),
    ]),
  );
}

/**
 * The form fields of the UI-schema vocabulary (spec §4.5, §4.6: text, textarea, number, select,
 * multiselect, checkbox, date), shared by `Form` nodes and HITL form cards: one control per field,
 * labelled, with its description and its problem (the browser's check or the server's) under it.
 */
export function FormFields(props: {
  idPrefix: string;
  fields: readonly FormField[];
  values: Readonly<Record<string, FormValue>>;
  problems: Readonly<Record<string, string>>;
  disabled: boolean;
  onChange: (id: string, value: FormValue) => void;
}): ReactElement {
  const { idPrefix, fields, values, problems, disabled, onChange } = props;
  return (
    <div className="ui-form-fields">
      {fields.map((field) => {
        const id = `${idPrefix}-${field.id}`;
        const value = values[field.id];
        const described = field.description === undefined ? undefined : `${id}-description`;
        const common = {
          id,
          disabled,
          'aria-describedby': described,
          'aria-invalid': problems[field.id] === undefined ? undefined : true,
          'data-field': field.id,
        };
        let control: ReactElement;
        switch (field.type) {
          case 'textarea':
            control = (
              <textarea
                {...common}
                rows={3}
                placeholder={field.placeholder}
                value={typeof value === 'string' ? value : ''}
                onChange={(event) => onChange(field.id, event.target.value)}
              />
            );
            break;
          case 'number':
            control = (
              <input
                {...common}
                type="number"
                min={field.min}
                max={field.max}
                value={typeof value === 'number' ? value : ''}
                onChange={(event) =>
                  onChange(field.id, event.target.value === '' ? null : Number(event.target.value))
                }
              />
            );
            break;
          case 'checkbox':
            control = (
              <input
                {...common}
                type="checkbox"
                checked={value === true}
                onChange={(event) => onChange(field.id, event.target.checked)}
              />
            );
            break;
          case 'date':
            control = (
              <input
                {...common}
                type="date"
                value={typeof value === 'string' ? value : ''}
                onChange={(event) =>
                  onChange(field.id, event.target.value === '' ? null : event.target.value)
                }
              />
            );
            break;
          case 'select':
            control = (
              <select
                {...common}
                value={typeof value === 'string' ? value : ''}
                onChange={(event) =>
                  onChange(field.id, event.target.value === '' ? null : event.target.value)
                }
              >
                <option value="">—</option>
                {(field.options ?? []).map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            );
            break;
          case 'multiselect': {
            const chosen = Array.isArray(value) ? value : [];
            control = (
              <div role="group" aria-labelledby={`${id}-label`} className="ui-multiselect">
                {(field.options ?? []).map((option) => (
                  <label key={option.value}>
                    <input
                      type="checkbox"
                      disabled={disabled}
                      checked={chosen.includes(option.value)}
                      onChange={(event) =>
                        onChange(
                          field.id,
                          event.target.checked
                            ? [...chosen, option.value]
                            : chosen.filter((item) => item !== option.value),
                        )
                      }
                    />{' '}
                    {option.label}
                  </label>
                ))}
              </div>
            );
            break;
          }
          case 'text':
            control = (
              <input
                {...common}
                type={field.secret === true ? 'password' : 'text'}
                {...(field.secret === true ? { autoComplete: 'off' } : {})}
                maxLength={field.maxLength}
                minLength={field.minLength}
                placeholder={field.placeholder}
                value={typeof value === 'string' ? value : ''}
                onChange={(event) => onChange(field.id, event.target.value)}
              />
            );
            break;
        }
        return (
          <div key={field.id} className={`ui-field ui-field-${field.type}`}>
            <label id={`${id}-label`} htmlFor={field.type === 'multiselect' ? undefined : id}>
              {field.label}
              {field.required === true && <span aria-hidden="true"> *</span>}
            </label>
            {control}
            {field.description !== undefined && (
              <div id={described} className="ui-field-description">
                {field.description}
              </div>
            )}
            {problems[field.id] !== undefined && (
              <div className="field-error" role="alert">
                {problems[field.id]}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}
