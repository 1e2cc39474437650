import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExtensionPreview, InstalledExtension } from '@youyou/contracts';
import { EXAMPLE_EXTENSION } from './example-extension.ts';
import type { TestServer } from './test-server.ts';

export { EXAMPLE_EXTENSION };

/** Previews and installs an extension folder or archive, accepting exactly the permissions it asks for. */
export async function installExtension(
  server: TestServer,
  path: string = EXAMPLE_EXTENSION,
): Promise<InstalledExtension> {
  const preview = await server.call<ExtensionPreview>('POST', '/api/extensions/preview', { path });
  if (!preview.ok || preview.permissions === null)
    throw new Error(`the extension does not load: ${JSON.stringify(preview.problems)}`);
  return server.call<InstalledExtension>('POST', '/api/extensions', {
    staging_id: preview.staging_id,
    accepted_permissions: preview.permissions,
  });
}

/** One request the fake weather service received. */
export interface WeatherRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/**
 * A fake weather service on loopback, speaking plain HTTP + JSON like a real one:
 * `GET /weather/<city>?units=…` answers `{ city, current: {…}, forecast: […] }`. `respond` replaces
 * the answer for a test (echo a header, redirect, hold the answer back …).
 */
export interface WeatherService {
  url: string;
  requests: WeatherRequest[];
  respond: ((request: IncomingMessage, response: ServerResponse) => void | Promise<void>) | undefined;
  close(): Promise<void>;
}

export async function startWeatherService(): Promise<WeatherService> {
  const service: WeatherService = {
    url: '',
    requests: [],
    respond: undefined,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request, response) => {
    service.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    if (service.respond !== undefined) {
      void service.respond(request, response);
      return;
    }
    const city = decodeURIComponent((request.url ?? '').split('?')[0]?.split('/').at(-1) ?? '');
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        city,
        current: { temperature: 18, conditions: 'sunny', wind_kmh: 12 },
        forecast: Array.from({ length: 50 }, (_, day) => ({ day, temperature: 15 + (day % 7) })),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.unref();
  return service;
}
