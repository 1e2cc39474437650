import {
  estimateMessageTokens,
  estimateTextTokens,
  IMAGE_TOKEN_ESTIMATE,
  SUMMARY_HEADER,
  type ChatRequest,
  type ContentBlock,
  type Message,
  type ToolDefinition,
  type ToolResultMessage,
  type UserMessage,
} from '@youyou/agent';
import {
  CONTEXT_SLOTS,
  CONTEXT_TOKEN_ESTIMATOR,
  DEFAULT_CONTEXT_ASSEMBLY_POLICY,
  type ContextAssemblyPolicy,
  type ContextAssemblyReport,
  type ContextSlot,
  type ContextTrim,
  type ContextTrimReason,
} from '@youyou/contracts';

/** One injected item of the memory or knowledge slot, best first. */
export interface SlotItem {
  /** The memory's or chunk's id; the report names it. */
  id: string;
  /** What the model reads. */
  text: string;
}

/** What the memory and knowledge slots bring to a request (each list ranked best first). */
export interface ContextInjections {
  memory: readonly SlotItem[];
  knowledge: readonly SlotItem[];
}

/** Which attachment a content block is, so an excerpt can tell the model how to read the rest. */
export interface AttachmentInfo {
  /** "report.pdf". */
  name: string;
  /** The parsed document's id, when `read_document` can read it. */
  documentId?: string;
}

export interface AssemblyInput {
  request: ChatRequest;
  model: { id: string; contextWindow: number; maxOutputTokens?: number | undefined };
  policy?: ContextAssemblyPolicy;
  injections?: ContextInjections;
  callIndex?: number;
  /** Names an attachment block of the current turn (undefined: the block is the user's own text). */
  attachmentOf?: (block: ContentBlock) => AttachmentInfo | undefined;
  now?: () => number;
}

export interface AssemblyResult {
  request: ChatRequest;
  report: ContextAssemblyReport;
  /** The memory ids that reached the model (their `last_accessed_at` moves). */
  injectedMemoryIds: readonly string[];
}

const ATTACHMENT_TAG = /^<(file|document)\b[^>]*\bname="([^"]*)"[^>]*>/;

/**
 * The default reading of attachment blocks: a file block, or a text block the server wrapped as
 * `<file name="…">` / `<document id="…" name="…">` (the ingest helper's rendering).
 */
export function defaultAttachmentOf(block: ContentBlock): AttachmentInfo | undefined {
  if (block.type === 'file') return { name: block.name };
  if (block.type !== 'text') return undefined;
  const match = ATTACHMENT_TAG.exec(block.text);
  if (match === null) return undefined;
  const id = /\bid="([^"]+)"/.exec(match[0])?.[1];
  return {
    name: match[2] ?? 'attachment',
    ...(match[1] === 'document' && id !== undefined ? { documentId: id } : {}),
  };
}

function blockTokens(block: ContentBlock): number {
  if (block.type === 'text') return Math.ceil(block.text.length / 4);
  if (block.type === 'image') return IMAGE_TOKEN_ESTIMATE;
  return Math.ceil((block.text?.length ?? ((block.data?.length ?? 0) * 3) / 4) / 4);
}

/** The first and last parts of `text` within about `tokens` tokens, with a marker between. */
export function headAndTail(text: string, tokens: number, marker: string): string {
  const characters = Math.max(0, tokens * 4 - marker.length - 2);
  if (text.length <= characters) return text;
  const head = Math.ceil(characters * 0.7);
  const tail = characters - head;
  return `${text.slice(0, head)}\n${marker}\n${tail > 0 ? text.slice(-tail) : ''}`;
}

/** A tool description's first sentence (or its first 160 characters). */
function shortDescription(description: string): string {
  const text = description.trim().replace(/\s+/g, ' ');
  const sentence = /^.+?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
  return sentence.length <= 160 ? sentence : `${sentence.slice(0, 157)}…`;
}

function isSummary(message: Message): boolean {
  if (message.role !== 'user') return false;
  const first = message.content[0];
  return first?.type === 'text' && first.text.startsWith(SUMMARY_HEADER);
}

interface MessageEntry {
  message: Message;
  tokens: number;
  /** The index in the session's list, for the report. */
  index: number;
}

function renderMemory(items: readonly SlotItem[]): string {
  if (items.length === 0) return '';
  return [
    '',
    '',
    '# Memory',
    'What the user asked you to remember (each item confirmed by the user). Use it when it bears on the request; do not mention it otherwise.',
    ...items.map((item) => `- ${item.text}`),
  ].join('\n');
}

function renderKnowledge(items: readonly SlotItem[]): string {
  if (items.length === 0) return '';
  return [
    '<knowledge>',
    "Passages from the project's knowledge that may bear on the user's latest message. Cite a passage by its link when you use it.",
    ...items.map((item, index) => `[${index + 1}] ${item.text}`),
    '</knowledge>',
  ].join('\n');
}

/**
 * One model request built from slots (spec §4.10): the profile's system prompt, memory, knowledge,
 * the history, the current turn (message, attachments, references) and this turn's tool results.
 * The budget is the model's window minus the output reserve; memory and knowledge are held to
 * their shares; when the request still does not fit, slots are trimmed from the lowest priority up
 * (memory and knowledge drop their weakest items, history its oldest exchanges, tool results and
 * attachments become head-and-tail excerpts). Every trim lands in the report.
 *
 * @example
 * const { request, report } = assembleRequest({ request, model: { id: 'm', contextWindow: 8000 } });
 */
export function assembleRequest(input: AssemblyInput): AssemblyResult {
  const started = performance.now();
  const policy = input.policy ?? DEFAULT_CONTEXT_ASSEMBLY_POLICY;
  const { request, model } = input;
  const attachmentOf = input.attachmentOf ?? defaultAttachmentOf;
  const window = Math.max(0, model.contextWindow);
  const reserve = Math.min(
    Math.floor(window / 2),
    policy.output_reserve_tokens ??
      request.maxTokens ??
      model.maxOutputTokens ??
      Math.min(8_192, Math.floor(window / 4)),
  );
  const budget = Math.max(0, window - reserve);
  // The tool definitions belong to the system slot (they travel in the request's `tools` field);
  // the request lists them most important first, so the last are dropped first.
  // Their estimate is kept with the list: serialising every definition on each total would put
  // the whole catalogue's JSON on the per-call path several times over.
  const toolsTokensOf = (list: readonly ToolDefinition[]): number =>
    list.length === 0 ? 0 : estimateTextTokens(JSON.stringify(list));
  let tools: ToolDefinition[] = [...request.tools];
  let toolsTokens = toolsTokensOf(tools);
  const setTools = (next: ToolDefinition[]): void => {
    tools = next;
    toolsTokens = toolsTokensOf(next);
  };
  const droppedTools: string[] = [];
  const trims: ContextTrim[] = [];
  const trim = (entry: ContextTrim): void => {
    trims.push(entry);
  };

  // Split the session's list into history, the current turn and this turn's tool round.
  const messages = request.messages;
  let current = -1;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role === 'user' && !isSummary(message)) {
      current = index;
      break;
    }
  }
  const entry = (message: Message, index: number): MessageEntry => ({
    message,
    tokens: estimateMessageTokens(message),
    index,
  });
  let history: MessageEntry[] = messages.slice(0, Math.max(0, current)).map(entry);
  const currentMessage = current === -1 ? undefined : (messages[current] as UserMessage);
  let currentBlocks: ContentBlock[] = currentMessage === undefined ? [] : [...currentMessage.content];
  let toolRound: MessageEntry[] =
    current === -1
      ? []
      : messages.slice(current + 1).map((message, offset) => entry(message, current + 1 + offset));
  if (current === -1) history = messages.map(entry);

  let memory = [...(input.injections?.memory ?? [])];
  let knowledge = [...(input.injections?.knowledge ?? [])];
  const promptTokens = estimateTextTokens(request.systemPrompt);
  const requested: Record<ContextSlot, number> = {
    system: 0,
    memory: 0,
    knowledge: 0,
    history: 0,
    current_turn: 0,
    tool_results: 0,
  };
  const itemTokens = (item: SlotItem): number => estimateTextTokens(item.text) + 1;
  const sum = <T>(list: readonly T[], of: (item: T) => number): number =>
    list.reduce((total, item) => total + of(item), 0);
  const tokensOf: Record<ContextSlot, () => number> = {
    system: () => promptTokens + toolsTokens,
    memory: () => (memory.length === 0 ? 0 : 40 + sum(memory, itemTokens)),
    knowledge: () => (knowledge.length === 0 ? 0 : 30 + sum(knowledge, itemTokens)),
    history: () => sum(history, (item) => item.tokens),
    current_turn: () => sum(currentBlocks, blockTokens),
    tool_results: () => sum(toolRound, (item) => item.tokens),
  };
  for (const slot of CONTEXT_SLOTS) requested[slot] = tokensOf[slot]();
  const cap = (slot: ContextSlot): number => Math.floor((policy.slots[slot]?.share ?? 1) * budget);
  const priority = (slot: ContextSlot): number => policy.slots[slot]?.priority ?? 50;

  const dropItems = (slot: 'memory' | 'knowledge', target: number, reason: ContextTrimReason): void => {
    let list = slot === 'memory' ? memory : knowledge;
    while (list.length > 0 && tokensOf[slot]() > target) {
      const dropped = list[list.length - 1] as SlotItem;
      list = list.slice(0, -1);
      if (slot === 'memory') memory = list;
      else knowledge = list;
      trim({
        slot,
        kind: 'dropped',
        reason,
        item: `${slot === 'memory' ? 'memory' : 'passage'} ${dropped.id}`,
        tokens_before: itemTokens(dropped),
        tokens_after: 0,
      });
    }
  };

  const excerptTools = (
    slot: 'history' | 'tool_results',
    list: MessageEntry[],
    limit: number,
    target: number,
    reason: ContextTrimReason,
  ): MessageEntry[] => {
    const next = [...list];
    let total = sum(next, (item) => item.tokens);
    // Images go first, oldest first: each counts as much as a page of text, and the result's text
    // already says what was there (decision 0046).
    for (let position = 0; position < next.length && total > target; position++) {
      const item = next[position] as MessageEntry;
      if (item.message.role !== 'tool' || item.message.images === undefined) continue;
      const { images, ...message } = item.message;
      const tokens = estimateMessageTokens(message);
      next[position] = { ...item, message, tokens };
      total -= item.tokens - tokens;
      trim({
        slot,
        kind: 'dropped',
        reason,
        item: `${images.length === 1 ? 'image' : `${images.length} images`} of tool result ${message.toolName} (message ${item.index + 1})`,
        tokens_before: item.tokens - tokens,
        tokens_after: 0,
        note: "the model read the result's text line instead",
      });
    }
    for (let position = 0; position < next.length && total > target; position++) {
      const item = next[position] as MessageEntry;
      if (item.message.role !== 'tool' || item.tokens <= limit) continue;
      const message = item.message;
      const content = headAndTail(
        message.content,
        limit,
        `[… ${message.content.length} characters in all; the middle was left out to fit the context window …]`,
      );
      const shortened: ToolResultMessage = { ...message, content };
      const tokens = estimateMessageTokens(shortened);
      next[position] = { ...item, message: shortened, tokens };
      total -= item.tokens - tokens;
      trim({
        slot,
        kind: 'excerpted',
        reason,
        item: `tool result ${message.toolName} (message ${item.index + 1})`,
        tokens_before: item.tokens,
        tokens_after: tokens,
      });
    }
    return next;
  };

  const dropHistory = (target: number, reason: ContextTrimReason): void => {
    history = excerptTools('history', history, policy.tool_result_tokens, target, reason);
    // Whole exchanges leave from the oldest: an exchange starts at a user message, so a tool call
    // never loses its result.
    let dropped = 0;
    let droppedTokens = 0;
    while (history.length > 0 && tokensOf.history() > target) {
      let end = 1;
      while (end < history.length && (history[end] as MessageEntry).message.role !== 'user') end++;
      if (end === history.length && current === -1) break;
      for (const item of history.slice(0, end)) droppedTokens += item.tokens;
      dropped += end;
      history = history.slice(end);
    }
    if (dropped > 0)
      trim({
        slot: 'history',
        kind: 'dropped',
        reason,
        item: `${dropped} oldest message${dropped === 1 ? '' : 's'}`,
        tokens_before: droppedTokens,
        tokens_after: 0,
        note: 'kept in the conversation; left out of this request',
      });
  };

  const excerptCurrent = (target: number, reason: ContextTrimReason): void => {
    let total = tokensOf.current_turn();
    const limit = policy.attachment_excerpt_tokens;
    currentBlocks = currentBlocks.map((block) => {
      if (total <= target) return block;
      const attachment = attachmentOf(block);
      const before = blockTokens(block);
      if (attachment === undefined || before <= limit) return block;
      const text = block.type === 'text' ? block.text : block.type === 'file' ? (block.text ?? '') : '';
      if (text === '') return block;
      const how =
        attachment.documentId === undefined
          ? "the whole file is in the conversation's uploads"
          : `use read_document ${attachment.documentId} to read the rest`;
      const excerpt = headAndTail(
        text,
        limit,
        `[… excerpt of ${attachment.name}: ${text.length} characters in all; ${how} …]`,
      );
      const shortened: ContentBlock =
        block.type === 'file' ? { ...block, text: excerpt } : { type: 'text', text: excerpt };
      const after = blockTokens(shortened);
      total -= before - after;
      trim({
        slot: 'current_turn',
        kind: 'excerpted',
        reason,
        item: `attachment ${attachment.name}`,
        tokens_before: before,
        tokens_after: after,
        ...(attachment.documentId === undefined
          ? {}
          : { note: `use read_document ${attachment.documentId}` }),
      });
      return shortened;
    });
  };

  // The system prompt's own text is the profile's and stays whole; its tools shrink: descriptions
  // to their first sentence first, then whole tools from the end of the list.
  const trimTools = (target: number, reason: ContextTrimReason): void => {
    if (tokensOf.system() <= target || tools.length === 0) return;
    const before = toolsTokens;
    const shortened = tools.map((tool) => ({ ...tool, description: shortDescription(tool.description) }));
    const changed = shortened.filter((tool, index) => tool.description !== tools[index]?.description);
    if (changed.length > 0) {
      setTools(shortened);
      trim({
        slot: 'system',
        kind: 'excerpted',
        reason,
        item: `descriptions of ${changed.length} tool${changed.length === 1 ? '' : 's'}`,
        tokens_before: before,
        tokens_after: toolsTokens,
        note: 'each cut to its first sentence',
      });
    }
    while (tools.length > 0 && tokensOf.system() > target) {
      const dropped = tools[tools.length - 1] as ToolDefinition;
      const withIt = toolsTokens;
      setTools(tools.slice(0, -1));
      droppedTools.push(dropped.name);
      trim({
        slot: 'system',
        kind: 'dropped',
        reason,
        item: `tool ${dropped.name}`,
        tokens_before: withIt - toolsTokens,
        tokens_after: 0,
        note: 'left out of this request; the model was told',
      });
    }
  };

  const shrink = (slot: ContextSlot, target: number, reason: ContextTrimReason): void => {
    switch (slot) {
      case 'memory':
      case 'knowledge':
        dropItems(slot, target, reason);
        return;
      case 'history':
        dropHistory(target, reason);
        return;
      case 'tool_results':
        toolRound = excerptTools('tool_results', toolRound, policy.tool_result_tokens, target, reason);
        if (tokensOf.tool_results() > target)
          toolRound = excerptTools(
            'tool_results',
            toolRound,
            Math.max(64, Math.floor(policy.tool_result_tokens / 8)),
            target,
            reason,
          );
        return;
      case 'current_turn':
        excerptCurrent(target, reason);
        return;
      case 'system':
        trimTools(target, reason);
        return;
    }
  };

  // Shares first: a slot never takes more than its share, whatever room is left.
  for (const slot of CONTEXT_SLOTS) {
    const share = policy.slots[slot]?.share ?? 1;
    if (share < 1 && tokensOf[slot]() > cap(slot)) shrink(slot, cap(slot), 'share');
  }
  // Then the budget, from the lowest priority up.
  const total = (): number => sum(CONTEXT_SLOTS, (slot) => tokensOf[slot]());
  const order = [...CONTEXT_SLOTS].sort((a, b) => priority(b) - priority(a));
  for (const slot of order) {
    const excess = total() - budget;
    if (excess <= 0) break;
    shrink(slot, Math.max(0, tokensOf[slot]() - excess), 'budget');
  }
  const toolsNote =
    droppedTools.length === 0
      ? ''
      : `\n\n(These tools were left out of this request to fit the context window: ${droppedTools.join(', ')}.)`;

  // The request the model gets.
  const historyNote = trims.some((item) => item.slot === 'history' && item.kind === 'dropped')
    ? '\n\n(Earlier messages of this conversation were left out of this request to fit the context window; they are not lost.)'
    : '';
  // Memory and knowledge go into the system prompt (spec §4.10's injection slots sit before the
  // history); the user's message stays the user's own words.
  const knowledgeText = renderKnowledge(knowledge);
  const outMessages: Message[] = history.map((item) => item.message);
  if (currentMessage !== undefined) outMessages.push({ role: 'user', content: currentBlocks });
  for (const item of toolRound) outMessages.push(item.message);
  const assembled: ChatRequest = {
    ...request,
    systemPrompt: `${request.systemPrompt}${renderMemory(memory)}${knowledgeText === '' ? '' : `\n\n${knowledgeText}`}${historyNote}${toolsNote}`,
    messages: outMessages,
    tools,
  };

  const items: Record<ContextSlot, number> = {
    system: request.systemPrompt === '' ? 0 : 1,
    memory: memory.length,
    knowledge: knowledge.length,
    history: history.length,
    current_turn: currentBlocks.length,
    tool_results: toolRound.length,
  };
  const finalTotal = total();
  const report: ContextAssemblyReport = {
    version: 1,
    call_index: input.callIndex ?? 0,
    model_id: model.id,
    context_window: window,
    output_reserve_tokens: reserve,
    budget_tokens: budget,
    total_tokens: finalTotal,
    tools_tokens: toolsTokens,
    estimator: CONTEXT_TOKEN_ESTIMATOR,
    slots: CONTEXT_SLOTS.map((slot) => ({
      slot,
      priority: priority(slot),
      cap_tokens: cap(slot),
      requested_tokens: requested[slot],
      tokens: tokensOf[slot](),
      items: items[slot],
    })),
    trims,
    over_budget: finalTotal > budget,
    duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
    created_at: new Date((input.now ?? Date.now)()).toISOString(),
  };
  return { request: assembled, report, injectedMemoryIds: memory.map((item) => item.id) };
}
