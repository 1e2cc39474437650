import { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../src/api/index.ts';
import type { ComponentEntry, Upload } from '@youyou/contracts';
import { createServices, type AppServices } from '../src/services/index.ts';

/** An ApiClient whose every method fails unless a test gives it an answer. */
export function fakeApi(overrides: Partial<ApiClient> = {}): ApiClient {
  const missing = (name: string) => () => Promise.reject(new Error(`fake api: ${name} not scripted`));
  const base = new Proxy({} as ApiClient, {
    get: (_target, property: string) =>
      property === 'uploadUrl' ? (id: string) => `/api/uploads/${id}/content` : missing(property),
  });
  return Object.assign(Object.create(base) as ApiClient, overrides);
}

export function testServices(api: ApiClient): AppServices {
  return createServices(api, new QueryClient({ defaultOptions: { queries: { retry: false } } }));
}

export function skillEntry(name: string, description: string): ComponentEntry {
  return { kind: 'skill', name, layer: 'global', enabled: true, description };
}

export function uploadOf(name: string): Upload {
  return {
    id: `upload-${name}`,
    name,
    media_type: 'text/plain',
    size: 5,
    sha256: '',
    project_id: null,
    conversation_id: null,
    created_at: '',
  };
}
