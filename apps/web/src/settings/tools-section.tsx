import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactElement } from 'react';
import {
  TOOL_POLICIES,
  type ToolAuditRecord,
  type ToolInfo,
  type ToolPolicy,
  type ToolSettingsPatch,
} from '@youyou/contracts';
import { errorMessage } from '../api/index.ts';
import { useTranslation } from '../i18n/index.ts';
import { hashOf } from '../navigation/index.ts';
import { useServices } from '../services/index.ts';

const TOOLS_KEY = ['tools'] as const;
const AUDIT_KEY = 'tool-calls';
const AUDIT_PAGE = 50;

const time = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });

function ToolRow(props: {
  tool: ToolInfo;
  saving: boolean;
  onChange: (patch: ToolSettingsPatch) => void;
}): ReactElement {
  const { tool, saving, onChange } = props;
  const t = useTranslation();
  return (
    <tr data-testid="tool-row" data-tool={tool.name}>
      <th scope="row">
        <div className="tool-name-line">
          <code>{tool.name}</code>
          <span className="badge">{t(`tools.source.${tool.source}`)}</span>
          {tool.mutating && <span className="badge warning">{t('tools.mutating')}</span>}
        </div>
        {tool.description !== '' && (
          <div className="tool-description" title={tool.description}>
            {tool.description}
          </div>
        )}
      </th>
      <td>
        <input
          type="checkbox"
          checked={tool.enabled}
          disabled={saving}
          aria-label={t('tools.enabledOf', { name: tool.name })}
          // Enabled is the default: ticking removes the override.
          onChange={(event) => onChange({ enabled: event.target.checked ? null : false })}
        />
      </td>
      <td>
        <select
          value={tool.policy}
          disabled={saving || !tool.enabled}
          aria-label={t('tools.policyOf', { name: tool.name })}
          onChange={(event) => {
            const policy = event.target.value as ToolPolicy;
            // The default policy is stored as no override, so a later default change applies.
            onChange({ policy: policy === tool.default_policy ? null : policy });
          }}
        >
          {TOOL_POLICIES.map((policy) => (
            <option key={policy} value={policy}>
              {t(`tools.policy.${policy}`)}
            </option>
          ))}
        </select>
        <div className="tool-default">
          {t('tools.default', { policy: t(`tools.policy.${tool.default_policy}`) })}
        </div>
      </td>
    </tr>
  );
}

function AuditRow({ call }: { call: ToolAuditRecord }): ReactElement {
  const t = useTranslation();
  return (
    <tr data-testid="audit-row" data-outcome={call.outcome}>
      <td>
        <time dateTime={call.started_at}>{time.format(new Date(call.started_at))}</time>
      </td>
      <td>
        <code>{call.tool_name}</code>
        {call.actor === 'user' && (
          <div className="tool-default" data-testid="audit-actor">
            {t('tools.audit.byUser', { source: call.source ?? '' })}
          </div>
        )}
      </td>
      <td className="audit-arguments">
        <code>{call.arguments_summary}</code>
      </td>
      <td className={`audit-outcome ${call.outcome}`}>
        {t(`tools.outcome.${call.outcome}`)}
        {call.error_code !== null && <span className="audit-code"> ({call.error_code})</span>}
      </td>
      <td>
        {t(`tool.decider.${call.decided_by}`)}
        <div className="tool-default">{t(`tools.policy.${call.policy}`)}</div>
      </td>
      <td>{t('tool.duration', { milliseconds: Math.round(call.duration_ms) })}</td>
      <td>
        {call.conversation_id === null ? (
          t('tools.audit.noConversation')
        ) : (
          <a href={hashOf({ conversationId: call.conversation_id, settings: undefined })}>
            {t('tools.audit.open')}
          </a>
        )}
      </td>
    </tr>
  );
}

/** Every tool call, newest first, filtered by tool, a page at a time. */
function AuditLog({ tools }: { tools: readonly ToolInfo[] }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const [toolName, setToolName] = useState('');
  const calls = useInfiniteQuery({
    queryKey: [AUDIT_KEY, toolName],
    queryFn: ({ pageParam }) =>
      api.allToolCalls({
        limit: AUDIT_PAGE,
        ...(toolName === '' ? {} : { toolName }),
        ...(pageParam === undefined ? {} : { before: pageParam }),
      }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) =>
      page.length < AUDIT_PAGE ? undefined : Date.parse(page.at(-1)?.started_at ?? ''),
  });
  const rows = calls.data?.pages.flat() ?? [];
  return (
    <section aria-labelledby="settings-tool-audit" className="tool-audit-log">
      <h3 id="settings-tool-audit">{t('tools.audit.heading')}</h3>
      <p className="settings-intro">{t('tools.audit.intro')}</p>
      <label className="field">
        <span>{t('tools.audit.filter')}</span>
        <select value={toolName} onChange={(event) => setToolName(event.target.value)}>
          <option value="">{t('tools.audit.all')}</option>
          {tools.map((tool) => (
            <option key={tool.name} value={tool.name}>
              {tool.name}
            </option>
          ))}
        </select>
      </label>
      {calls.isError && (
        <p className="field-error" role="alert">
          {errorMessage(calls.error)}
        </p>
      )}
      {calls.isSuccess && rows.length === 0 && <p className="empty-state">{t('tools.audit.none')}</p>}
      {rows.length > 0 && (
        <table className="usage-table audit-table">
          <thead>
            <tr>
              <th scope="col">{t('tools.audit.when')}</th>
              <th scope="col">{t('tools.audit.tool')}</th>
              <th scope="col">{t('tools.audit.arguments')}</th>
              <th scope="col">{t('tools.audit.outcome')}</th>
              <th scope="col">{t('tools.audit.decider')}</th>
              <th scope="col">{t('tools.audit.duration')}</th>
              <th scope="col">{t('tools.audit.conversation')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((call) => (
              <AuditRow key={call.id} call={call} />
            ))}
          </tbody>
        </table>
      )}
      {calls.hasNextPage && (
        <button
          type="button"
          className="button"
          disabled={calls.isFetchingNextPage}
          onClick={() => void calls.fetchNextPage()}
        >
          {t('tools.audit.older')}
        </button>
      )}
    </section>
  );
}

/**
 * Settings → Tools (spec §4.7, §4.8): every tool the workbench knows — built in, from component
 * folders, from MCP servers — with whether it is on and its confirmation policy (auto, confirm on a
 * card, deny), and the audit of the calls made: who decided each ran, and how it ended.
 */
export function ToolsSection(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const tools = useQuery({ queryKey: TOOLS_KEY, queryFn: () => api.listTools() });
  const update = useMutation({
    mutationFn: ({ name, patch }: { name: string; patch: ToolSettingsPatch }) => api.updateTool(name, patch),
    onSuccess: (info) =>
      queryClient.setQueryData<ToolInfo[]>(TOOLS_KEY, (current) =>
        current?.map((tool) => (tool.name === info.name ? info : tool)),
      ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: TOOLS_KEY }),
  });
  const list = tools.data ?? [];
  return (
    <div className="settings-widget" data-widget="tools">
      <p className="settings-intro">{t('tools.intro')}</p>
      <p className="settings-intro">{t('tools.order')}</p>
      {(tools.isError || update.isError) && (
        <p className="field-error" role="alert">
          {t('common.error', { message: errorMessage(tools.error ?? update.error) })}
        </p>
      )}
      {tools.isSuccess && list.length === 0 && <p className="empty-state">{t('tools.none')}</p>}
      {list.length > 0 && (
        <table className="usage-table tools-table" data-testid="tools-table">
          <thead>
            <tr>
              <th scope="col">{t('tools.column.tool')}</th>
              <th scope="col">{t('tools.enabled')}</th>
              <th scope="col">{t('tools.policy')}</th>
            </tr>
          </thead>
          <tbody>
            {list.map((tool) => (
              <ToolRow
                key={tool.name}
                tool={tool}
                saving={update.isPending && update.variables.name === tool.name}
                onChange={(patch) => update.mutate({ name: tool.name, patch })}
              />
            ))}
          </tbody>
        </table>
      )}
      <AuditLog tools={list} />
    </div>
  );
}
