// Context assembly per turn (spec §4.10): the assembler building one model request from its slots
// (system, memory, knowledge, a 100,000-token history, the current turn with an attachment,
// tool results), with the budget trimming it must do in a 64k and a 200k window, against a raw
// baseline: naive concatenation of the same messages with the same chars/4 estimate and no
// budget. Alone:
//   node --conditions=@youyou/source --import tsx bench/server/context-assembly.ts
import type { ChatRequest, Message } from '@youyou/agent';
import { assembleRequest } from '@youyou/server';

const HISTORY_TOKENS = 100_000;
const ITERATIONS = 200;

/** A conversation of about `tokens` tokens: user/assistant exchanges with a tool round now and then. */
function history(tokens: number): Message[] {
  const messages: Message[] = [];
  let total = 0;
  for (let index = 0; total < tokens; index++) {
    const question =
      `Question ${index}: how does step ${index} of the migration behave on PostgreSQL? `.repeat(3);
    const answer = `Step ${index} copies the rows in batches and checks the counts afterwards. `.repeat(12);
    messages.push({ role: 'user', content: [{ type: 'text', text: question }] });
    if (index % 5 === 0) {
      messages.push({
        role: 'assistant',
        content: '',
        toolCalls: [
          { callId: `c${index}`, toolName: 'read_file', arguments: `{"path":"step-${index}.sql"}` },
        ],
        status: 'complete',
      });
      messages.push({
        role: 'tool',
        callId: `c${index}`,
        toolName: 'read_file',
        content: `-- step ${index}\n${'INSERT INTO target SELECT * FROM source;\n'.repeat(40)}`,
        isError: false,
      });
    }
    messages.push({ role: 'assistant', content: answer, toolCalls: [], status: 'complete' });
    total += (question.length + answer.length) / 4 + (index % 5 === 0 ? 450 : 0);
  }
  return messages;
}

const past = history(HISTORY_TOKENS);
const attachment = `<document id="doc_1" name="runbook.docx" format="docx">\n${'The runbook says to stop writes first. '.repeat(800)}\n</document>`;
const request: ChatRequest = {
  model: 'bench',
  systemPrompt: 'You are a careful database assistant. '.repeat(40),
  messages: [
    ...past,
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What now?' },
        { type: 'text', text: attachment },
      ],
    },
  ],
  tools: Array.from({ length: 20 }, (_, index) => ({
    name: `tool_${index}`,
    description: 'Does one thing to the workspace and reports what it did.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  })),
};
const injections = {
  memory: Array.from({ length: 20 }, (_, index) => ({
    id: `m${index}`,
    text: `(preference) Memory number ${index} about the user.`,
  })),
  knowledge: Array.from({ length: 6 }, (_, index) => ({
    id: `k${index}`,
    text: `Runbook (p. ${index + 1}) — cite as [Runbook](youyou-doc:doc_1#${index})\n${'Writes stop before the copy. '.repeat(30)}`,
  })),
};

/** The raw baseline: concatenate everything and count chars/4 — no slots, no budget, no report. */
function naive(input: ChatRequest): { text: string; tokens: number } {
  let text = input.systemPrompt;
  for (const item of [...injections.memory, ...injections.knowledge]) text += `\n${item.text}`;
  for (const message of input.messages) {
    if (message.role === 'user')
      for (const block of message.content) text += block.type === 'text' ? `\n${block.text}` : '';
    else if (message.role === 'assistant')
      text += `\n${message.content}${message.toolCalls.map((call) => call.arguments).join('')}`;
    else text += `\n${message.content}`;
  }
  text += JSON.stringify(input.tools);
  return { text, tokens: Math.ceil(text.length / 4) };
}

function time(run: () => unknown): { median: number; p95: number } {
  for (let index = 0; index < 20; index++) run();
  const samples: number[] = [];
  for (let index = 0; index < ITERATIONS; index++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return {
    median: samples[Math.floor(samples.length / 2)] ?? 0,
    p95: samples[Math.floor(samples.length * 0.95)] ?? 0,
  };
}

const baseline = time(() => naive(request));
const rows: string[] = [];
const ms = (value: number): string => value.toFixed(3);
rows.push(
  `| naive concatenation + chars/4 (baseline, no budget) | ${ms(baseline.median)} | ${ms(baseline.p95)} | 1.0× | ${naive(request).tokens.toLocaleString('en')} sent, nothing trimmed |`,
);
for (const window of [200_000, 64_000]) {
  const result = assembleRequest({ request, model: { id: 'bench', contextWindow: window }, injections });
  const timing = time(() =>
    assembleRequest({ request, model: { id: 'bench', contextWindow: window }, injections }),
  );
  const { report } = result;
  rows.push(
    `| assembler, ${(window / 1000).toFixed(0)}k window | ${ms(timing.median)} | ${ms(timing.p95)} | ${(timing.median / baseline.median).toFixed(1)}× | ${report.total_tokens.toLocaleString('en')} of ${report.budget_tokens.toLocaleString('en')} budget, ${report.trims.length} trims |`,
  );
}
console.log(
  `Context assembly per turn, history ≈ ${HISTORY_TOKENS.toLocaleString('en')} tokens (${past.length} messages), ${ITERATIONS} runs each\n`,
);
console.log('| what | median ms | p95 ms | vs. baseline | request |');
console.log('|---|---:|---:|---:|---|');
for (const row of rows) console.log(row);
