import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { McpServer } from '@youyou/contracts';
import { useEffect, useState, type ReactElement } from 'react';
import { errorMessage } from '../api/index.ts';
import { COMMANDS_KEY } from '../customise/index.ts';
import { useTranslation, type MessageKey } from '../i18n/index.ts';
import { useProjects } from '../queries/index.ts';
import { useServices } from '../services/index.ts';
import { CardActions, ConfirmRemove } from './card-actions.tsx';
import { EMPTY_MCP_DRAFT, isMcpDraftValid, mcpCreateOf, type McpDraft } from './mcp-draft.ts';

const MCP_SERVERS_KEY = ['mcp-servers'] as const;

const STATE_LABELS: Record<McpServer['status']['state'], MessageKey> = {
  idle: 'mcp.state.idle',
  connecting: 'mcp.state.connecting',
  connected: 'mcp.state.connected',
  failed: 'mcp.state.failed',
  disabled: 'mcp.state.disabled',
};

/** Servers and their live status; polled while the section is open, as the status moves on its own. */
function useMcpServers() {
  const { api } = useServices();
  return useQuery({ queryKey: MCP_SERVERS_KEY, queryFn: () => api.listMcpServers(), refetchInterval: 3000 });
}

function McpServerForm({ onDone }: { onDone: () => void }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const projects = useProjects();
  const [draft, setDraft] = useState<McpDraft>(EMPTY_MCP_DRAFT);
  const set = <Key extends keyof McpDraft>(key: Key, value: McpDraft[Key]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const save = useMutation({
    mutationFn: async () => {
      const created = await api.createMcpServer(mcpCreateOf(draft));
      return api.connectMcpServer(created.id);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: MCP_SERVERS_KEY }),
    onSuccess: onDone,
  });
  const valid = isMcpDraftValid(draft);
  return (
    <form
      className="settings-card mcp-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) save.mutate();
      }}
    >
      <div className="field-row">
        <label className="field">
          <span>{t('mcp.name')}</span>
          <input
            value={draft.name}
            onChange={(event) => set('name', event.target.value.toLowerCase())}
            required
            aria-describedby="mcp-name-hint"
          />
          <span id="mcp-name-hint" className="field-hint">
            {t('mcp.nameHint')}
          </span>
        </label>
        <label className="field">
          <span>{t('mcp.transport')}</span>
          <select
            value={draft.transport}
            onChange={(event) => set('transport', event.target.value === 'http' ? 'http' : 'stdio')}
          >
            <option value="stdio">{t('mcp.transport.stdio')}</option>
            <option value="http">{t('mcp.transport.http')}</option>
          </select>
        </label>
      </div>
      {draft.transport === 'stdio' ? (
        <>
          <label className="field">
            <span>{t('mcp.command')}</span>
            <input value={draft.command} onChange={(event) => set('command', event.target.value)} required />
          </label>
          <label className="field">
            <span>{t('mcp.args')}</span>
            <textarea rows={3} value={draft.args} onChange={(event) => set('args', event.target.value)} />
          </label>
          <div className="field-row">
            <label className="field">
              <span>{t('mcp.env')}</span>
              <textarea rows={2} value={draft.env} onChange={(event) => set('env', event.target.value)} />
            </label>
            <label className="field">
              <span>{t('mcp.cwd')}</span>
              <input value={draft.cwd} onChange={(event) => set('cwd', event.target.value)} />
            </label>
          </div>
        </>
      ) : (
        <>
          <label className="field">
            <span>{t('mcp.url')}</span>
            <input
              value={draft.url}
              onChange={(event) => set('url', event.target.value)}
              inputMode="url"
              required
            />
          </label>
          <div className="field-row">
            <label className="field">
              <span>{t('mcp.headers')}</span>
              <textarea
                rows={2}
                value={draft.headers}
                onChange={(event) => set('headers', event.target.value)}
              />
            </label>
            <label className="field">
              <span>{t('mcp.secretHeaders')}</span>
              <textarea
                rows={2}
                className="secret-text"
                value={draft.secretHeaders}
                onChange={(event) => set('secretHeaders', event.target.value)}
                autoComplete="off"
                spellCheck={false}
              />
            </label>
          </div>
        </>
      )}
      <div className="field-row">
        <label className="field">
          <span>{t('mcp.scope')}</span>
          <select
            value={draft.scope === 'user' ? '' : draft.projectId}
            onChange={(event) => {
              set('scope', event.target.value === '' ? 'user' : 'project');
              set('projectId', event.target.value);
            }}
          >
            <option value="">{t('mcp.scope.user')}</option>
            {projects.data?.map((project) => (
              <option key={project.id} value={project.id}>
                {t('mcp.scope.project', { name: project.name })}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('mcp.toolTimeout')}</span>
          <input
            value={draft.toolTimeoutSeconds}
            onChange={(event) => set('toolTimeoutSeconds', event.target.value)}
            inputMode="numeric"
          />
        </label>
      </div>
      {save.isError && (
        <p className="field-error" role="alert">
          {errorMessage(save.error)}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onDone}>
          {t('nav.cancel')}
        </button>
        <button type="submit" className="button primary" disabled={!valid || save.isPending}>
          {save.isPending ? t('mcp.connecting') : t('mcp.save')}
        </button>
      </div>
    </form>
  );
}

function McpServerCard({ server, onRemove }: { server: McpServer; onRemove: () => void }): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: MCP_SERVERS_KEY });
  const connect = useMutation({ mutationFn: () => api.connectMcpServer(server.id), onSettled: refresh });
  const toggle = useMutation({
    mutationFn: () => api.updateMcpServer(server.id, { enabled: !server.enabled }),
    onSettled: refresh,
  });
  const { status, transport } = server;
  return (
    <li className="settings-card mcp-card" data-state={status.state}>
      <div className="provider-line">
        <strong>{server.name}</strong>
        <span className={`badge mcp-state ${status.state}`}>{t(STATE_LABELS[status.state])}</span>
        <span className="badge">{transport.type === 'stdio' ? 'stdio' : 'HTTP'}</span>
        {server.scope === 'project' && <span className="badge layer-project">{t('mcp.projectBadge')}</span>}
        <span className="provider-url">
          {transport.type === 'stdio' ? [transport.command, ...transport.args].join(' ') : transport.url}
        </span>
      </div>
      {status.state === 'connected' && (
        <p className="test-ok" role="status">
          {t('mcp.connectedInfo', {
            count: status.tool_count,
            server:
              status.server_info === null ? '' : `${status.server_info.name} ${status.server_info.version}`,
          })}
          {status.pid !== null && <span className="mcp-pid"> {t('mcp.pid', { pid: status.pid })}</span>}
        </p>
      )}
      {status.error !== null && (
        <p className="field-error" role="status">
          {t('mcp.failedInfo', { reason: status.error, restarts: status.restarts })}
        </p>
      )}
      {connect.isError && (
        <p className="field-error" role="alert">
          {errorMessage(connect.error)}
        </p>
      )}
      {status.tools.length > 0 && (
        <details className="mcp-tools">
          <summary>{t('mcp.tools', { count: status.tools.length })}</summary>
          <ul>
            {status.tools.map((tool) => (
              <li key={tool.name}>
                <code>{tool.name}</code>
                {tool.mutating ? (
                  <span className="badge muted">{t('mcp.mutating')}</span>
                ) : (
                  <span className="badge">{t('mcp.readOnly')}</span>
                )}
                <span className="mcp-tool-description">{tool.description}</span>
              </li>
            ))}
          </ul>
          {status.skipped_tools.map((tool) => (
            <p key={tool.remote_name} className="field-hint">
              {t('mcp.skipped', { name: tool.remote_name, reason: tool.reason })}
            </p>
          ))}
        </details>
      )}
      {status.stderr_tail.length > 0 && (
        <details className="mcp-stderr">
          <summary>{t('mcp.stderr')}</summary>
          <pre>{status.stderr_tail.join('\n')}</pre>
        </details>
      )}
      <CardActions
        actions={[
          {
            label: server.enabled ? t('mcp.disable') : t('mcp.enable'),
            onClick: () => toggle.mutate(),
            disabled: toggle.isPending,
          },
          {
            label: connect.isPending ? t('mcp.connecting') : t('mcp.connect'),
            onClick: () => connect.mutate(),
            disabled: !server.enabled || connect.isPending,
          },
        ]}
        removeLabel={t('mcp.remove')}
        onRemove={onRemove}
      />
    </li>
  );
}

/** Settings → MCP servers: add stdio or HTTP servers, see whether each is connected and its tools. */
export function McpSection(): ReactElement {
  const t = useTranslation();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const servers = useMcpServers();
  // A server that connects (or goes) changes the / commands its prompts add to the composer.
  const connected = (servers.data ?? [])
    .filter((server) => server.status.state === 'connected')
    .map((server) => server.id)
    .join(',');
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: COMMANDS_KEY });
  }, [connected, queryClient]);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<McpServer>();
  const remove = useMutation({
    mutationFn: (id: string) => api.deleteMcpServer(id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: MCP_SERVERS_KEY }),
  });
  return (
    <div className="settings-widget" data-widget="mcp">
      <p className="settings-intro">{t('mcp.intro')}</p>
      {servers.isError && (
        <p className="field-error" role="alert">
          {errorMessage(servers.error)}
        </p>
      )}
      <ul className="settings-list">
        {servers.data?.length === 0 && <li className="empty-state">{t('mcp.none')}</li>}
        {servers.data?.map((server) => (
          <McpServerCard key={server.id} server={server} onRemove={() => setRemoving(server)} />
        ))}
      </ul>
      {adding ? (
        <McpServerForm onDone={() => setAdding(false)} />
      ) : (
        <button type="button" className="button primary" onClick={() => setAdding(true)}>
          {t('mcp.add')}
        </button>
      )}
      <ConfirmRemove
        item={removing}
        label={t('mcp.remove')}
        message={t('mcp.confirmRemove', { name: removing?.name ?? '' })}
        onRemove={(server) => remove.mutate(server.id)}
        onClose={() => setRemoving(undefined)}
      />
    </div>
  );
}
