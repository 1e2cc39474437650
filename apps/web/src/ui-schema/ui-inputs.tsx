import { useState, type ReactElement } from 'react';
import {
  absolutePointer,
  childPointer,
  fieldPattern,
  formValueProblems,
  readPointer,
  resolveArguments,
  resolveText,
  type CheckBoxNode,
  type ChoicePickerNode,
  type DateTimeInputNode,
  type FormField,
  type FormNode,
  type FormValue,
  type SliderNode,
  type TextFieldNode,
} from '@youyou/contracts';
import { useTranslation } from '../i18n/index.ts';
import { FormFields, initialValues } from './form-fields.tsx';
import { scopeOf, useUiSurface } from './ui-context.ts';
import { UiActionStatus } from './ui-action-button.tsx';
import { useUiAction } from './use-ui-action.ts';

/** The pointer an input writes, and its current value. */
function useBinding(path: string, base: string): [unknown, (value: unknown) => void] {
  const surface = useUiSurface();
  const pointer = absolutePointer(path, { base });
  return [readPointer(surface.data, pointer), (value) => surface.setValue(pointer, value)];
}

function useControlId(node: { id?: string }, base: string): string {
  const surface = useUiSurface();
  const [fallback] = useState(() => Math.random().toString(36).slice(2, 8));
  return `${surface.idPrefix}-${(node.id ?? fallback).replaceAll(/[^A-Za-z0-9_-]/g, '_')}${base.replaceAll(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** A text field bound to the data model; its rules are checked as the user types. */
export function TextFieldView({ node, base }: { node: TextFieldNode; base: string }): ReactElement {
  const surface = useUiSurface();
  const id = useControlId(node, base);
  const [value, setValue] = useBinding(node.value.path, base);
  const [touched, setTouched] = useState(false);
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  const label = resolveText(node.label, scopeOf(surface, base), surface.locale);
  const field: FormField = {
    id: 'value',
    type: node.variant === 'longText' ? 'textarea' : 'text',
    label: label === '' ? 'value' : label,
    ...(node.required === undefined ? {} : { required: node.required }),
    ...(node.minLength === undefined ? {} : { minLength: node.minLength }),
    ...(node.maxLength === undefined ? {} : { maxLength: node.maxLength }),
    ...(node.pattern === undefined || fieldPattern(node) === undefined ? {} : { pattern: node.pattern }),
    ...(node.patternMessage === undefined ? {} : { patternMessage: node.patternMessage }),
  };
  const problem =
    touched && node.variant !== 'number'
      ? formValueProblems([field], { value: text })[0]?.message
      : undefined;
  const common = {
    id,
    value: text,
    placeholder: node.placeholder,
    'aria-invalid': problem === undefined ? undefined : true,
    'aria-required': node.required === true ? true : undefined,
    onBlur: () => setTouched(true),
  };
  return (
    <div className="ui-field">
      <label htmlFor={id}>
        {label}
        {node.required === true && <span aria-hidden="true"> *</span>}
      </label>
      {node.variant === 'longText' ? (
        <textarea {...common} rows={3} onChange={(event) => setValue(event.target.value)} />
      ) : (
        <input
          {...common}
          type={node.variant === 'obscured' ? 'password' : node.variant === 'number' ? 'number' : 'text'}
          onChange={(event) =>
            setValue(
              node.variant === 'number'
                ? event.target.value === ''
                  ? null
                  : Number(event.target.value)
                : event.target.value,
            )
          }
        />
      )}
      {problem !== undefined && (
        <div className="field-error" role="alert">
          {problem}
        </div>
      )}
    </div>
  );
}

export function CheckBoxView({ node, base }: { node: CheckBoxNode; base: string }): ReactElement {
  const surface = useUiSurface();
  const id = useControlId(node, base);
  const [value, setValue] = useBinding(node.value.path, base);
  return (
    <div className="ui-field ui-field-checkbox">
      <label htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          onChange={(event) => setValue(event.target.checked)}
        />{' '}
        {resolveText(node.label, scopeOf(surface, base), surface.locale)}
      </label>
    </div>
  );
}

export function ChoicePickerView({ node, base }: { node: ChoicePickerNode; base: string }): ReactElement {
  const surface = useUiSurface();
  const id = useControlId(node, base);
  const [value, setValue] = useBinding(node.value.path, base);
  const chosen = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  const multiple = node.variant === 'multipleSelection';
  const scope = scopeOf(surface, base);
  return (
    <fieldset className="ui-field ui-choice-picker" aria-describedby={undefined}>
      {node.label !== undefined && <legend>{resolveText(node.label, scope, surface.locale)}</legend>}
      <div className="ui-multiselect">
        {node.options.map((option) => (
          <label key={option.value}>
            <input
              type={multiple ? 'checkbox' : 'radio'}
              name={id}
              value={option.value}
              checked={chosen.includes(option.value)}
              onChange={(event) =>
                setValue(
                  multiple
                    ? event.target.checked
                      ? [...chosen, option.value]
                      : chosen.filter((item) => item !== option.value)
                    : [option.value],
                )
              }
            />{' '}
            {resolveText(option.label, scope, surface.locale)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function DateTimeInputView({ node, base }: { node: DateTimeInputNode; base: string }): ReactElement {
  const surface = useUiSurface();
  const id = useControlId(node, base);
  const [value, setValue] = useBinding(node.value.path, base);
  const type =
    node.enableTime === true && node.enableDate === false
      ? 'time'
      : node.enableTime === true
        ? 'datetime-local'
        : 'date';
  return (
    <div className="ui-field">
      {node.label !== undefined && (
        <label htmlFor={id}>{resolveText(node.label, scopeOf(surface, base), surface.locale)}</label>
      )}
      <input
        id={id}
        type={type}
        value={typeof value === 'string' ? value : ''}
        onChange={(event) => setValue(event.target.value)}
      />
    </div>
  );
}

export function SliderView({ node, base }: { node: SliderNode; base: string }): ReactElement {
  const surface = useUiSurface();
  const id = useControlId(node, base);
  const [value, setValue] = useBinding(node.value.path, base);
  const number = typeof value === 'number' ? value : (node.min ?? 0);
  return (
    <div className="ui-field">
      {node.label !== undefined && (
        <label htmlFor={id}>{resolveText(node.label, scopeOf(surface, base), surface.locale)}</label>
      )}
      <div className="ui-slider">
        <input
          id={id}
          type="range"
          min={node.min ?? 0}
          max={node.max}
          value={number}
          onChange={(event) => setValue(Number(event.target.value))}
        />
        <output htmlFor={id}>{number}</output>
      </div>
    </div>
  );
}

/**
 * A `Form` node: its fields (the same controls as a HITL form card), checked in the browser with
 * the same function the server uses, then sent as the action's arguments (one per field).
 */
export function FormView({ node, base }: { node: FormNode; base: string }): ReactElement {
  const surface = useUiSurface();
  const t = useTranslation();
  const id = useControlId(node, base);
  const [local, setLocal] = useState<Record<string, FormValue>>(() => ({
    ...initialValues(node.fields),
    ...(node.value === undefined
      ? {}
      : boundValues(readPointer(surface.data, absolutePointer(node.value.path, { base })), node.fields)),
  }));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const { state, start, confirm, dismiss } = useUiAction(node.action);
  const scope = scopeOf(surface, base);
  return (
    <form
      className="ui-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const found = formValueProblems(node.fields, local);
        setProblems(Object.fromEntries(found.map((problem) => [problem.path, problem.message])));
        if (found.length > 0) return;
        start({ ...resolveArguments(node.action.arguments, scope), ...local });
      }}
    >
      <FormFields
        idPrefix={id}
        fields={node.fields}
        values={local}
        problems={problems}
        disabled={!surface.interactive || state.status === 'pending'}
        onChange={(fieldId, value) => {
          setLocal((current) => ({ ...current, [fieldId]: value }));
          if (node.value !== undefined)
            surface.setValue(childPointer(absolutePointer(node.value.path, { base }), fieldId), value);
        }}
      />
      <div className="ui-actions">
        <button
          type="submit"
          className="button primary"
          disabled={!surface.interactive || state.status === 'pending'}
        >
          {node.submitLabel === undefined
            ? t('ui.submit')
            : resolveText(node.submitLabel, scope, surface.locale)}
        </button>
      </div>
      <UiActionStatus state={state} onConfirm={confirm} onDismiss={dismiss} />
    </form>
  );
}

/** The values of the form's own fields found in the bound object (other keys stay out of the answer). */
function boundValues(value: unknown, fields: readonly FormField[]): Record<string, FormValue> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const ids = new Set(fields.map((field) => field.id));
  return Object.fromEntries(
    Object.entries(value).filter(
      ([key, item]) =>
        ids.has(key) &&
        (item === null ||
          ['string', 'number', 'boolean'].includes(typeof item) ||
          (Array.isArray(item) && item.every((entry) => typeof entry === 'string'))),
    ),
  ) as Record<string, FormValue>;
}
