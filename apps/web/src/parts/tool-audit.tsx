import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { useNavigation } from '../navigation/index.ts';
import { useOptionalServices, type AppServices } from '../services/index.ts';

/**
 * The audit row of one tool call (spec §4.8), shown on its card: who decided (the policy, you on a
 * confirm card, a conversation grant, the settings), the policy, the outcome, and the arguments as
 * the audit keeps them.
 */
export function ToolAudit({ callId }: { callId: string }): ReactElement | null {
  const services = useOptionalServices();
  return services === undefined ? null : <ToolAuditRow callId={callId} services={services} />;
}

function ToolAuditRow({ callId, services }: { callId: string; services: AppServices }): ReactElement | null {
  const t = useTranslation();
  const { api, queryClient } = services;
  const conversationId = useNavigation((state) => state.conversationId);
  const audit = useQuery(
    {
      queryKey: ['tool-call', conversationId, callId],
      queryFn: async () => (await api.toolCalls(conversationId ?? '', { callId }))[0] ?? null,
      enabled: conversationId !== undefined,
      staleTime: Infinity,
    },
    queryClient,
  );
  const record = audit.data;
  if (record === undefined || record === null) return null;
  return (
    <div className="tool-section tool-audit" data-testid="tool-audit">
      {t('tool.audit', {
        decider: t(`tool.decider.${record.decided_by}`),
        policy: t(`tools.policy.${record.policy}`),
        outcome: t(`tools.outcome.${record.outcome}`),
      })}
      <div>
        <code>{record.arguments_summary}</code>
      </div>
    </div>
  );
}
