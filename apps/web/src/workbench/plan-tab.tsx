import { useQuery } from '@tanstack/react-query';
import type { PlanStep } from '@youyou/contracts';
import type { ReactElement } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { CheckIcon } from '../icons/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { useServices } from '../services/index.ts';
import { planboardKey } from './planboard-sync.ts';

/** A conversation's planboard, kept live by `syncPlanboards`. */
export function usePlanboard(conversationId: string | undefined) {
  const { api } = useServices();
  return useQuery({
    queryKey: planboardKey(conversationId ?? ''),
    queryFn: () => api.getPlanboard(conversationId ?? ''),
    enabled: conversationId !== undefined,
  });
}

function StepMark({ status }: { status: PlanStep['status'] }): ReactElement {
  if (status === 'done') return <CheckIcon size={14} />;
  if (status === 'in_progress') return <span className="spinner" aria-hidden="true" />;
  if (status === 'skipped') return <span aria-hidden="true">↷</span>;
  return <span className="plan-dot" aria-hidden="true" />;
}

/** The Plan tab (spec §1.1 right column): the steps with their status, progress, the current step. */
export function PlanTab(): ReactElement {
  const t = useTranslation();
  const conversationId = useNavigation((state) => state.conversationId);
  const board = usePlanboard(conversationId);
  const steps = board.data?.plan.steps ?? [];
  if (steps.length === 0) return <p className="empty-state">{t('workbench.planEmpty')}</p>;
  const done = steps.filter((step) => step.status === 'done' || step.status === 'skipped').length;
  const current = steps.find((step) => step.status === 'in_progress');
  return (
    <div className="plan-tab" data-testid="plan-tab">
      <div className="plan-summary">
        <div className="plan-progress-label">{t('plan.progress', { done, total: steps.length })}</div>
        <div
          className="plan-progress"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={steps.length}
          aria-valuenow={done}
          aria-label={t('plan.progress', { done, total: steps.length })}
        >
          <div className="plan-progress-bar" style={{ width: `${(done / steps.length) * 100}%` }} />
        </div>
        {current !== undefined && (
          <div className="plan-current">{t('plan.current', { title: current.title })}</div>
        )}
        {board.data?.plan.explanation !== undefined && (
          <div className="plan-explanation">{board.data.plan.explanation}</div>
        )}
      </div>
      <ol className="plan-steps">
        {steps.map((step) => (
          <li key={step.id} className={`plan-step ${step.status}`} data-status={step.status}>
            <span className="plan-mark">
              <StepMark status={step.status} />
            </span>
            <span className="plan-step-body">
              <span className="plan-step-title">{step.title}</span>
              <span className="visually-hidden"> — {t(`plan.status.${step.status}`)}</span>
              {step.note !== undefined && <span className="plan-step-note">{step.note}</span>}
            </span>
          </li>
        ))}
      </ol>
      <div className="plan-version">{t('plan.version', { version: board.data?.plan.version ?? 0 })}</div>
    </div>
  );
}
