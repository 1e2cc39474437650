import type {
  AgentProfile,
  CommandDescriptor,
  DocumentTemplateInfo,
  EffectiveSettingsResponse,
  LibraryFile,
  Macro,
  MacroInput,
  ProfileFile,
  ProfileInput,
  ProfilePatch,
  ProfileTemplate,
  Settings,
  SettingScope,
  SettingsSchemaResponse,
  SettingsWrite,
  SettingsWriteResult,
  Snippet,
  SnippetInput,
} from '@youyou/contracts';
import { ApiError, type Connection } from '../connection/index.ts';

/** What the next run of a conversation runs with, and which layer each value came from. */
export interface RunPlan {
  profile_id: string;
  parameters: Record<string, unknown>;
  budget: Record<string, unknown>;
  tools: { allow: string[]; deny: string[]; confirm: string[] };
  context_slots: Record<string, { priority: number; share: number | null }>;
  /** Per key: `system`, `user`, `project`, `profile` or `conversation`. */
  sources: Record<string, string>;
}

/** Settings, profiles, commands, macros, snippets and exports (spec §4.7, §4.9, §4.14, §4.16). */
export interface CustomiseClientMethods {
  /** Every declared setting (spec §4.9): type, default, effect timing, labels. */
  getSettingsSchema(): Promise<SettingsSchemaResponse>;
  /** The value each setting has for a project or conversation, and the layer it comes from. */
  getEffectiveSettings(scope?: {
    projectId?: string;
    conversationId?: string;
  }): Promise<EffectiveSettingsResponse>;
  /** Writes values at one layer; one bad value writes nothing. */
  writeSettings(write: SettingsWrite): Promise<SettingsWriteResult>;
  /** Removes a key's value at one layer, so the layer below shows through. */
  resetSetting(key: string, scope: SettingScope): Promise<SettingsWriteResult>;
  /** The values written at the user layer, by key (secrets left out). */
  getUserSettings(): Promise<Settings>;
  /** Changes user-layer values; `null` removes one. Same checks as `writeSettings`. */
  updateUserSettings(values: Readonly<Record<string, unknown>>): Promise<Settings>;
  /** Agent profiles, the built-in one first. */
  listProfiles(): Promise<AgentProfile[]>;
  getProfile(id: string): Promise<AgentProfile>;
  createProfile(input: ProfileInput): Promise<AgentProfile>;
  updateProfile(id: string, patch: ProfilePatch): Promise<AgentProfile>;
  /** A copy of a profile (the built-in one included), named `name` when given. */
  duplicateProfile(id: string, name?: string): Promise<AgentProfile>;
  deleteProfile(id: string): Promise<void>;
  /** The installed extensions' profile templates (spec §4.7). */
  listProfileTemplates(): Promise<ProfileTemplate[]>;
  /** A profile of yours made from a template, named `name` when given; an unknown template is NOT_FOUND. */
  createProfileFromTemplate(templateId: string, name?: string): Promise<AgentProfile>;
  /** The installed extensions' document templates, which the agent fills into artifacts. */
  listDocumentTemplates(): Promise<DocumentTemplateInfo[]>;
  /** Imports a `youyou.profile` file's text; a bad file imports nothing. */
  importProfiles(text: string): Promise<AgentProfile[]>;
  /** The `youyou.profile` file of some profiles (every one when `ids` is absent). */
  exportProfiles(ids?: readonly string[]): Promise<ProfileFile>;
  /** Where that file downloads from (for a link). */
  profilesExportUrl(id?: string): string;
  /** What the next run of a conversation runs with (profile, parameters, budget, tools). */
  runPlan(conversationId: string): Promise<RunPlan>;
  /** Every slash command: built-in, skills, macros, extensions, MCP prompts. */
  listCommands(projectId?: string): Promise<CommandDescriptor[]>;
  listMacros(): Promise<Macro[]>;
  createMacro(input: MacroInput): Promise<Macro>;
  updateMacro(id: string, patch: Partial<MacroInput>): Promise<Macro>;
  deleteMacro(id: string): Promise<void>;
  listSnippets(): Promise<Snippet[]>;
  createSnippet(input: SnippetInput): Promise<Snippet>;
  updateSnippet(id: string, patch: Partial<SnippetInput>): Promise<Snippet>;
  deleteSnippet(id: string): Promise<void>;
  /** Imports a `youyou.library` file's text (snippets and macros); a bad file imports nothing. */
  importLibrary(text: string): Promise<{ snippets: number; macros: number }>;
  exportLibrary(): Promise<LibraryFile>;
  /** Where the library file downloads from (for a link). */
  libraryExportUrl(): string;
  /** Where a conversation downloads as Markdown or JSON (for a link). */
  conversationExportUrl(conversationId: string, format: 'markdown' | 'json'): string;
}

const segment = encodeURIComponent;

/** The customise methods over one connection. */
export function customiseClientMethods(connection: Connection): CustomiseClientMethods {
  const json = connection.json.bind(connection);
  // Import files go as the text the user picked, not re-serialised: the server reports a bad
  // file as it is.
  const postText = async <Result>(path: string, text: string): Promise<Result> => {
    const response = await connection.fetch(connection.url(path), {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: text,
    });
    if (!response.ok) throw await ApiError.fromResponse(response);
    return (await response.json()) as Result;
  };
  return {
    getSettingsSchema: () => json('GET', '/api/settings/schema'),
    getEffectiveSettings: (scope = {}) =>
      json('GET', '/api/settings/effective', {
        query: { project_id: scope.projectId, conversation_id: scope.conversationId },
      }),
    writeSettings: (write) => json('PUT', '/api/settings/values', { body: write }),
    resetSetting: (key, scope) =>
      json('DELETE', `/api/settings/values/${segment(key)}`, {
        query: { layer: scope.layer, scope_id: scope.scope_id },
      }),
    getUserSettings: () => json('GET', '/api/settings'),
    updateUserSettings: (values) => json('PATCH', '/api/settings', { body: values }),
    listProfiles: async () => (await json<{ profiles: AgentProfile[] }>('GET', '/api/profiles')).profiles,
    getProfile: (id) => json('GET', `/api/profiles/${segment(id)}`),
    createProfile: (input) => json('POST', '/api/profiles', { body: input }),
    updateProfile: (id, patch) => json('PATCH', `/api/profiles/${segment(id)}`, { body: patch }),
    duplicateProfile: (id, name) =>
      json('POST', `/api/profiles/${segment(id)}/duplicate`, { body: name === undefined ? {} : { name } }),
    deleteProfile: async (id) => {
      await json('DELETE', `/api/profiles/${segment(id)}`);
    },
    listProfileTemplates: async () =>
      (await json<{ templates: ProfileTemplate[] }>('GET', '/api/profile-templates')).templates,
    createProfileFromTemplate: (templateId, name) =>
      json('POST', '/api/profiles/from-template', {
        body: name === undefined ? { template_id: templateId } : { template_id: templateId, name },
      }),
    listDocumentTemplates: async () =>
      (await json<{ templates: DocumentTemplateInfo[] }>('GET', '/api/document-templates')).templates,
    importProfiles: async (text) =>
      (await postText<{ profiles: AgentProfile[] }>('/api/profiles/import', text)).profiles,
    exportProfiles: (ids) => {
      // `id` repeats, one per profile, which a query record cannot say.
      const search = new URLSearchParams((ids ?? []).map((id) => ['id', id]));
      const text = search.toString();
      return json('GET', `/api/profiles/export${text === '' ? '' : `?${text}`}`);
    },
    profilesExportUrl: (id) => connection.url('/api/profiles/export', { id }),
    runPlan: (conversationId) => json('GET', `/api/conversations/${segment(conversationId)}/run-plan`),
    listCommands: async (projectId) =>
      (
        await json<{ commands: CommandDescriptor[] }>('GET', '/api/commands', {
          query: { project_id: projectId },
        })
      ).commands,
    listMacros: async () => (await json<{ macros: Macro[] }>('GET', '/api/macros')).macros,
    createMacro: (input) => json('POST', '/api/macros', { body: input }),
    updateMacro: (id, patch) => json('PATCH', `/api/macros/${segment(id)}`, { body: patch }),
    deleteMacro: async (id) => {
      await json('DELETE', `/api/macros/${segment(id)}`);
    },
    listSnippets: async () => (await json<{ snippets: Snippet[] }>('GET', '/api/snippets')).snippets,
    createSnippet: (input) => json('POST', '/api/snippets', { body: input }),
    updateSnippet: (id, patch) => json('PATCH', `/api/snippets/${segment(id)}`, { body: patch }),
    deleteSnippet: async (id) => {
      await json('DELETE', `/api/snippets/${segment(id)}`);
    },
    importLibrary: (text) => postText('/api/library/import', text),
    exportLibrary: () => json('GET', '/api/library/export'),
    libraryExportUrl: () => connection.url('/api/library/export'),
    conversationExportUrl: (conversationId, format) =>
      connection.url(`/api/conversations/${segment(conversationId)}/export`, { format }),
  };
}
