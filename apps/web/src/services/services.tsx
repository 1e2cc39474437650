import { QueryClient } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from '../api/index.ts';
import { LiveConversations } from '../conversation-state/index.ts';

/** What components reach through context: the API client and the live conversation streams. */
export interface AppServices {
  api: ApiClient;
  queryClient: QueryClient;
  live: LiveConversations;
}

const ServicesContext = createContext<AppServices | undefined>(undefined);

/**
 * Builds the services of one app instance.
 *
 * @example
 * const services = createServices(createHttpClient());
 */
export function createServices(api: ApiClient, queryClient?: QueryClient): AppServices {
  const client =
    queryClient ??
    new QueryClient({
      defaultOptions: {
        queries: { staleTime: 10_000, retry: 1, refetchOnWindowFocus: false },
        mutations: { retry: 0 },
      },
    });
  return { api, queryClient: client, live: new LiveConversations({ api, queryClient: client }) };
}

export function ServicesProvider({
  services,
  children,
}: {
  services: AppServices;
  children: ReactNode;
}): ReactNode {
  return <ServicesContext value={services}>{children}</ServicesContext>;
}

/** The app's services, or undefined outside ServicesProvider (for parts also drawn standalone). */
export function useOptionalServices(): AppServices | undefined {
  return useContext(ServicesContext);
}

/** The app's services; throws outside ServicesProvider. */
export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (services === undefined) throw new Error('useServices() needs a ServicesProvider');
  return services;
}
