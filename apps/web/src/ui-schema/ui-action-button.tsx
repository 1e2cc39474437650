import type { ReactElement } from 'react';
import type { UiAction } from '@youyou/contracts';
import { useTranslation } from '../i18n/index.ts';
import { useUiSurface } from './ui-context.ts';
import { useUiAction, type UiActionState } from './use-ui-action.ts';

/** The output, the error, or the confirmation question of one action, under its button. */
export function UiActionStatus(props: {
  state: UiActionState;
  onConfirm: () => void;
  onDismiss: () => void;
}): ReactElement | null {
  const t = useTranslation();
  const { state } = props;
  switch (state.status) {
    case 'idle':
      return null;
    case 'pending':
      return (
        <p className="ui-action-status" role="status" data-testid="ui-action-pending">
          <span className="spinner" aria-hidden="true" /> {t('ui.actionRunning')}
        </p>
      );
    case 'confirm':
      return (
        <div
          className="ui-action-confirm"
          role="alertdialog"
          aria-label={t('ui.confirmTitle', { tool: state.tool })}
        >
          <p>{t('ui.confirmTitle', { tool: state.tool })}</p>
          {state.lines.length > 0 && (
            <dl className="ui-kv">
              {state.lines.map((line) => (
                <div key={line.name} className="ui-kv-row">
                  <dt>{line.name}</dt>
                  <dd>{line.value}</dd>
                </div>
              ))}
            </dl>
          )}
          <div className="ui-actions">
            <button type="button" className="button primary" onClick={props.onConfirm}>
              {t('ui.confirmRun')}
            </button>
            <button type="button" className="button" onClick={props.onDismiss}>
              {t('ui.confirmCancel')}
            </button>
          </div>
        </div>
      );
    case 'done':
      return (
        <p
          className={`ui-action-status${state.result.is_error ? ' failed' : ''}`}
          role="status"
          data-testid="ui-action-output"
        >
          {state.result.output === '' ? t('ui.actionDone') : state.result.output}
        </p>
      );
    case 'failed':
      return (
        <p className="ui-action-status failed" role="alert" data-testid="ui-action-error">
          {t('ui.actionFailed', { message: state.message })}
        </p>
      );
  }
}

const VARIANT_CLASS = {
  default: 'button',
  primary: 'button primary',
  borderless: 'button borderless',
} as const;

/** A button that runs an action: disabled while it runs, its outcome under it. */
export function UiActionButton(props: {
  label: string;
  variant: keyof typeof VARIANT_CLASS | undefined;
  action: UiAction;
  argumentsOf: () => Record<string, unknown>;
}): ReactElement {
  const surface = useUiSurface();
  const { state, start, confirm, dismiss } = useUiAction(props.action);
  return (
    <div className="ui-action">
      <button
        type="button"
        className={VARIANT_CLASS[props.variant ?? 'default']}
        disabled={!surface.interactive || state.status === 'pending'}
        aria-busy={state.status === 'pending'}
        data-action={'tool' in props.action ? props.action.tool : props.action.command}
        onClick={() => start(props.argumentsOf())}
      >
        {props.label}
      </button>
      <UiActionStatus state={state} onConfirm={confirm} onDismiss={dismiss} />
    </div>
  );
}
