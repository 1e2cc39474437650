// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '../src/api/index.ts';
import { takeEarlyResponse } from '../src/early-requests/index.ts';
import { parseHash } from '../src/navigation/navigation-store.ts';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/** Runs the early-requests script as index.html would, with the page at `hash`. */
async function runEarlyScript(hash: string, answer: (path: string) => Response): Promise<string[]> {
  window.location.hash = hash;
  const started: string[] = [];
  vi.stubGlobal('fetch', (input: string) => {
    started.push(input);
    return Promise.resolve(answer(input));
  });
  vi.resetModules();
  await import('../src/early-requests/early-requests.ts');
  vi.unstubAllGlobals();
  return started;
}

describe('the first screen’s requests start before the app runs', () => {
  beforeEach(() => {
    delete window.youyouEarlyRequests;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    window.location.hash = '';
  });

  it('asks for the session check and the opened conversation’s Query, at the paths the client asks for', async () => {
    const id = 'c 1/é';
    const started = await runEarlyScript(`#/c/${encodeURIComponent(id)}`, () => json({}));
    // The same conversation navigation opens, and the same URLs the client requests.
    expect(parseHash(window.location.hash).conversationId).toBe(id);
    const asked: string[] = [];
    const client = createHttpClient({
      fetch: (input) => {
        asked.push(String(input));
        return Promise.resolve(json({ projects: [] }));
      },
    });
    window.youyouEarlyRequests?.clear();
    await client.listProjects();
    await client.getConversation(id).catch(() => undefined);
    expect(started).toEqual(asked);
  });

  it('starts only the session check when no conversation is open', async () => {
    expect(await runEarlyScript('#/settings/providers', () => json({}))).toEqual(['/api/projects']);
  });

  it('answers the client’s first GET from the early response, once, then goes to the network', async () => {
    await runEarlyScript('', () => json({ projects: [{ id: 'early' }] }));
    const network = vi.fn(() => Promise.resolve(json({ projects: [{ id: 'network' }] })));
    const client = createHttpClient({ fetch: network });
    expect(await client.listProjects()).toEqual([{ id: 'early' }]);
    expect(network).not.toHaveBeenCalled();
    expect(await client.listProjects()).toEqual([{ id: 'network' }]);
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('keeps a failed early answer an ApiError with the server’s code (a signed-out page still says so)', async () => {
    await runEarlyScript('', () =>
      Response.json({ error: { code: 'UNAUTHORIZED', message: 'sign in' } }, { status: 401 }),
    );
    const client = createHttpClient({ fetch: () => Promise.resolve(json({ projects: [] })) });
    await expect(client.listProjects()).rejects.toMatchObject({ status: 401 });
  });

  it('hands out nothing for another method, an aborted signal or a stale answer', async () => {
    await runEarlyScript('', () => json({}));
    expect(takeEarlyResponse('/api/projects', { method: 'POST' })).toBeUndefined();
    expect(takeEarlyResponse('/api/projects', { signal: AbortSignal.abort() })).toBeUndefined();
    const early = window.youyouEarlyRequests?.get('/api/projects');
    if (early === undefined) throw new Error('no early request');
    early.at = performance.now() - 60_000;
    expect(takeEarlyResponse('/api/projects')).toBeUndefined();
    expect(window.youyouEarlyRequests?.size).toBe(0);
  });
});
