import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type {
  AgentProfile,
  CommandDescriptor,
  EffectiveSettingsResponse,
  Macro,
  SettingsSchemaResponse,
  Snippet,
} from '@youyou/contracts';
import { useEffect } from 'react';
import { useFirstScreenDrawn } from '../first-screen/index.ts';
import { CONVERSATIONS_KEY } from '../conversation-state/index.ts';
import { useServices } from '../services/index.ts';
import { PANELS_KEY } from '../ui-schema/index.ts';

export const SETTINGS_KEY = ['settings'] as const;
export const PROFILES_KEY = ['profiles'] as const;
/** Under the components' key: a skill added or removed changes the commands. */
export const COMMANDS_KEY = ['components', 'commands'] as const;
export const MACROS_KEY = ['macros'] as const;
export const SNIPPETS_KEY = ['snippets'] as const;

export function useSettingsSchema(): UseQueryResult<SettingsSchemaResponse> {
  const { api } = useServices();
  // Fresh on every mount: an extension installed or a setting registered since shows up when the
  // settings centre opens, not ten seconds later.
  return useQuery({
    queryKey: [...SETTINGS_KEY, 'schema'],
    queryFn: () => api.getSettingsSchema(),
    staleTime: 0,
  });
}

export function useEffectiveSettings(context: {
  projectId?: string | undefined;
  conversationId?: string | undefined;
}): UseQueryResult<EffectiveSettingsResponse> {
  const { api } = useServices();
  return useQuery({
    queryKey: [...SETTINGS_KEY, 'effective', context.projectId ?? null, context.conversationId ?? null],
    queryFn: () =>
      api.getEffectiveSettings({
        ...(context.projectId === undefined ? {} : { projectId: context.projectId }),
        ...(context.conversationId === undefined ? {} : { conversationId: context.conversationId }),
      }),
  });
}

// The composer's profiles, commands, macros and snippets are asked for once the first screen is
// drawn: none of them is on it.
export function useProfiles(): UseQueryResult<AgentProfile[]> {
  const { api } = useServices();
  const enabled = useFirstScreenDrawn();
  return useQuery({ queryKey: PROFILES_KEY, queryFn: () => api.listProfiles(), enabled });
}

export function useCommands(projectId: string | undefined): UseQueryResult<CommandDescriptor[]> {
  const { api } = useServices();
  const enabled = useFirstScreenDrawn();
  return useQuery({
    queryKey: [...COMMANDS_KEY, projectId ?? null],
    queryFn: () => api.listCommands(projectId),
    enabled,
  });
}

export function useMacros(): UseQueryResult<Macro[]> {
  const { api } = useServices();
  const enabled = useFirstScreenDrawn();
  return useQuery({ queryKey: MACROS_KEY, queryFn: () => api.listMacros(), enabled });
}

export function useSnippets(): UseQueryResult<Snippet[]> {
  const { api } = useServices();
  const enabled = useFirstScreenDrawn();
  return useQuery({ queryKey: SNIPPETS_KEY, queryFn: () => api.listSnippets(), enabled });
}

/**
 * Keeps this tab in step with the others (spec §4.9): the workbench event stream's
 * `settings.changed` refetches the settings (and what depends on them), `extensions.changed` the
 * panels and the `/` menu's commands and macros; a reconnect refetches too,
 * so nothing missed while disconnected stays stale.
 */
export function useWorkbenchEvents(): void {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const drawn = useFirstScreenDrawn();
  useEffect(() => {
    if (typeof EventSource === 'undefined' || !drawn) return;
    const source = new EventSource(api.workbenchEventsUrl(), { withCredentials: true });
    source.onmessage = (message: MessageEvent<string>) => {
      let event: { type?: string };
      try {
        event = JSON.parse(message.data) as { type?: string };
      } catch {
        return;
      }
      // An extension installed, turned on or off, or uninstalled (here or in another tab): its
      // panel tabs and its `/` commands and macros come and go now, without a reload.
      if (event.type === 'extensions.changed' || event.type === 'stream.ready') {
        void queryClient.invalidateQueries({ queryKey: PANELS_KEY });
        void queryClient.invalidateQueries({ queryKey: COMMANDS_KEY });
        void queryClient.invalidateQueries({ queryKey: MACROS_KEY });
      }
      // A setting or a page registered on the server (an extension's): the settings centre redraws.
      if (event.type === 'settings.schema_changed')
        void queryClient.invalidateQueries({ queryKey: [...SETTINGS_KEY, 'schema'] });
      if (event.type === 'settings.changed' || event.type === 'stream.ready') {
        void queryClient.invalidateQueries({ queryKey: SETTINGS_KEY });
        void queryClient.invalidateQueries({ queryKey: ['models'] });
        if (event.type === 'settings.changed')
          void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
      }
    };
    return () => source.close();
  }, [api, queryClient, drawn]);
}
