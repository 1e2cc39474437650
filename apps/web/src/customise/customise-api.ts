import type {
  AgentProfile,
  CommandDescriptor,
  EffectiveSettingsResponse,
  Macro,
  MacroInput,
  ProfileInput,
  ProfilePatch,
  ProfileTemplate,
  SettingsSchemaResponse,
  SettingsWriteResult,
  Snippet,
  SnippetInput,
  WritableSettingLayer,
} from '@youyou/contracts';
import { ApiError } from '../api/index.ts';

async function request<T>(method: string, path: string, body?: unknown, raw = false): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: raw ? (body as string) : JSON.stringify(body) }),
  });
  if (!response.ok) throw await ApiError.fromResponse(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

const query = (values: Record<string, string | undefined>): string => {
  const entries = Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
};

/** Where a setting is written: a layer and, for project and conversation, which one. */
export interface SettingTarget {
  layer: WritableSettingLayer;
  scopeId?: string | undefined;
}

/**
 * The settings, profiles, commands, macros and snippets API (spec §4.7, §4.9, §4.14), same-origin
 * with the session cookie. Shapes are `@youyou/contracts`'.
 *
 * @example
 * const { settings } = await customiseApi.settingsSchema();
 */
export const customiseApi = {
  settingsSchema: () => request<SettingsSchemaResponse>('GET', '/api/settings/schema'),
  effectiveSettings: (context: { projectId?: string | undefined; conversationId?: string | undefined }) =>
    request<EffectiveSettingsResponse>(
      'GET',
      `/api/settings/effective${query({ project_id: context.projectId, conversation_id: context.conversationId })}`,
    ),
  writeSetting: (target: SettingTarget, key: string, value: unknown) =>
    request<SettingsWriteResult>('PUT', '/api/settings/values', {
      layer: target.layer,
      ...(target.scopeId === undefined ? {} : { scope_id: target.scopeId }),
      values: { [key]: value },
    }),
  resetSetting: (target: SettingTarget, key: string) =>
    request<SettingsWriteResult>(
      'DELETE',
      `/api/settings/values/${encodeURIComponent(key)}${query({ layer: target.layer, scope_id: target.scopeId })}`,
    ),
  profiles: async () => (await request<{ profiles: AgentProfile[] }>('GET', '/api/profiles')).profiles,
  createProfile: (input: ProfileInput) => request<AgentProfile>('POST', '/api/profiles', input),
  updateProfile: (id: string, patch: ProfilePatch) =>
    request<AgentProfile>('PATCH', `/api/profiles/${encodeURIComponent(id)}`, patch),
  duplicateProfile: (id: string) =>
    request<AgentProfile>('POST', `/api/profiles/${encodeURIComponent(id)}/duplicate`, {}),
  profileTemplates: async () =>
    (await request<{ templates: ProfileTemplate[] }>('GET', '/api/profile-templates')).templates,
  profileFromTemplate: (templateId: string) =>
    request<AgentProfile>('POST', '/api/profiles/from-template', { template_id: templateId }),
  deleteProfile: (id: string) => request<void>('DELETE', `/api/profiles/${encodeURIComponent(id)}`),
  importProfiles: async (text: string) =>
    (await request<{ profiles: AgentProfile[] }>('POST', '/api/profiles/import', text, true)).profiles,
  exportProfilesUrl: (id?: string) => `/api/profiles/export${query({ id })}`,
  setConversationProfile: (conversationId: string, profileId: string | null) =>
    request<unknown>('PATCH', `/api/conversations/${encodeURIComponent(conversationId)}`, {
      profile_id: profileId,
    }),
  commands: async (projectId?: string) =>
    (
      await request<{ commands: CommandDescriptor[] }>(
        'GET',
        `/api/commands${query({ project_id: projectId })}`,
      )
    ).commands,
  macros: async () => (await request<{ macros: Macro[] }>('GET', '/api/macros')).macros,
  createMacro: (input: MacroInput) => request<Macro>('POST', '/api/macros', input),
  updateMacro: (id: string, patch: Partial<MacroInput>) =>
    request<Macro>('PATCH', `/api/macros/${encodeURIComponent(id)}`, patch),
  deleteMacro: (id: string) => request<void>('DELETE', `/api/macros/${encodeURIComponent(id)}`),
  snippets: async () => (await request<{ snippets: Snippet[] }>('GET', '/api/snippets')).snippets,
  createSnippet: (input: SnippetInput) => request<Snippet>('POST', '/api/snippets', input),
  updateSnippet: (id: string, patch: Partial<SnippetInput>) =>
    request<Snippet>('PATCH', `/api/snippets/${encodeURIComponent(id)}`, patch),
  deleteSnippet: (id: string) => request<void>('DELETE', `/api/snippets/${encodeURIComponent(id)}`),
  importLibrary: (text: string) =>
    request<{ snippets: number; macros: number }>('POST', '/api/library/import', text, true),
  exportLibraryUrl: () => '/api/library/export',
  conversationExportUrl: (conversationId: string, format: 'markdown' | 'json') =>
    `/api/conversations/${encodeURIComponent(conversationId)}/export?format=${format}`,
};
