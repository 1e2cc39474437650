/**
 * The default profile's fixed cost per request (issue 24, seed 003 §4.10): the system slot (the
 * system prompt and the tool definitions, every built-in tool on) as the assembly report counts it
 * before trimming, and what the model request actually carried, against the 3,000-token target.
 * The raw baseline is the same request with no tools: the system prompt alone.
 *   node --conditions=@youyou/source --import tsx bench/server/system-prompt-size.ts [--per-tool]
 * (--per-tool: each tool definition's tokens and JSON, to see what to shorten).
 */
import { parseArgs } from 'node:util';
import type { ContextAssemblyReport } from '@youyou/contracts';
import { startServer } from '@youyou/server';
import { fakeTextReply, startFakeOpenAI } from '@youyou/testing';
import { callServer, format, temporaryFolder } from './support.ts';

const { values } = parseArgs({ options: { 'per-tool': { type: 'boolean', default: false } } });
const TARGET_TOKENS = 3_000;
/** The report's estimator (chars/4, decision 0015), applied to what was sent. */
const estimate = (value: unknown): number => Math.ceil(JSON.stringify(value ?? '').length / 4);

async function main(): Promise<void> {
  const fake = await startFakeOpenAI({ fallback: () => fakeTextReply('hello') });
  const folder = await temporaryFolder('youyou-bench-prompt-');
  const server = await startServer({
    port: 0,
    home: folder.path,
    dataDirectory: `${folder.path}/data`,
    workspaceRoots: [folder.path],
    logLevel: 'silent',
  });
  try {
    await callServer(server, 'POST', '/api/providers', {
      name: 'fake',
      kind: 'openai-compatible',
      base_url: fake.url,
      api_key: 'bench',
      // A window wide enough that nothing is trimmed: the figures are the untrimmed cost.
      models: [{ id: 'fake-model', context_window: 200_000 }],
    });
    const conversation = await callServer<{ id: string }>(server, 'POST', '/api/conversations', {});
    const sent = await callServer<{ run: { id: string } }>(
      server,
      'POST',
      `/api/conversations/${conversation.id}/messages`,
      { text: 'hi' },
    );
    for (let waited = 0; ; waited += 20) {
      const run = await callServer<{ status: string }>(server, 'GET', `/api/runs/${sent.run.id}`);
      if (!['queued', 'running'].includes(run.status)) break;
      if (waited > 20_000) throw new Error('the run did not end');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { reports } = await callServer<{ reports: ContextAssemblyReport[] }>(
      server,
      'GET',
      `/api/runs/${sent.run.id}/context`,
    );
    const report = reports[0];
    const system = report?.slots.find((slot) => slot.slot === 'system');
    const request = fake.chatRequests.at(-1)?.body as {
      messages?: { role: string; content?: unknown }[];
      tools?: unknown[];
    };
    const promptTokens = estimate(request.messages?.find((message) => message.role === 'system')?.content);
    const toolTokens = estimate(request.tools ?? []);
    if (values['per-tool'] === true)
      for (const tool of request.tools ?? [])
        console.log(`${String(estimate(tool))}\t${JSON.stringify(tool)}`);
    const total = system?.requested_tokens ?? promptTokens + toolTokens;
    console.log('| measure | tokens (chars/4) | against the target |');
    console.log('|---|---:|---:|');
    console.log(`| system prompt alone (baseline) | ${format(promptTokens, 0)} | |`);
    console.log(
      `| tool definitions sent (${String(request.tools?.length ?? 0)} tools) | ${format(toolTokens, 0)} | |`,
    );
    console.log(
      `| system slot in the report (prompt + tools) | ${format(total, 0)} | ${format(total / TARGET_TOKENS, 2)}× of ${format(TARGET_TOKENS, 0)} ${total <= TARGET_TOKENS ? '(met)' : '(missed)'} |`,
    );
    console.log(`| system slot ÷ prompt alone | ${format(total / Math.max(1, promptTokens), 1)}× | |`);
  } finally {
    await server.close();
    await fake.close();
    await folder.remove();
  }
}

await main();
