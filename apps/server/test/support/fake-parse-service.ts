import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received. */
export interface ParseServiceRequest {
  name: string;
  media_type: string;
  format: string;
  bytes: number;
}

/**
 * A fake external parsing service (the MinerU slot) speaking the adapter's JSON contract
 * (docs/decisions/0013): `POST /parse` `{ name, media_type, format, content_base64 }`. `answer`
 * decides the reply per request; the default reads any file as Markdown "recognised" text.
 */
export interface FakeParseService {
  url: string;
  requests: ParseServiceRequest[];
  answer: (request: ParseServiceRequest) => { status: number; body: unknown } | 'hang';
  close(): Promise<void>;
}

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeParseService(): Promise<FakeParseService> {
  const requests: ParseServiceRequest[] = [];
  const service: FakeParseService = {
    url: '',
    requests,
    answer: (request) => ({
      status: 200,
      body: {
        parser: { name: 'fake-mineru', version: '0.1' },
        metadata: { title: 'Recognised', pages: 1 },
        markdown: `# Recognised ${request.name}\n\nText the service recognised on the page.\n`,
      },
    }),
    close: async () => {},
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST' || request.url !== '/parse') {
        response.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(await body(request)) as {
        name: string;
        media_type: string;
        format: string;
        content_base64: string;
      };
      const entry = {
        name: parsed.name,
        media_type: parsed.media_type,
        format: parsed.format,
        bytes: Buffer.from(parsed.content_base64, 'base64').length,
      };
      requests.push(entry);
      const answer = service.answer(entry);
      if (answer === 'hang') return;
      response
        .writeHead(answer.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(answer.body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  service.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return service;
}
