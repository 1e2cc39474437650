/**
 * The ways servers say "the request does not fit the model's window", gathered from their
 * published error shapes: OpenAI and Azure (`code: context_length_exceeded`, "maximum context
 * length"), vLLM ("maximum context length", "longer than the maximum model length"), llama.cpp
 * (`type: exceed_context_size_error`, "exceeds the available context size"), LM Studio ("context
 * size has been exceeded"), Moonshot ("exceeded model token limit"), OpenRouter and DeepSeek
 * ("maximum context length"), Mistral ("too large for model with … maximum context length"),
 * Gemini's OpenAI endpoint ("exceeds the maximum number of tokens allowed") and Anthropic
 * ("prompt is too long", "input length and `max_tokens` exceed context limit").
 */
const CONTEXT_LENGTH_PATTERNS: readonly RegExp[] = [
  /maximum context length/i,
  /context[ _]length[ _]exceeded/i,
  /longer than the maximum model length/i,
  /exceeds? the available context size/i,
  /context size has been exceeded/i,
  /exceeds? (the )?(model'?s? )?context (length|window|limit)/i,
  /exceeded model token limit/i,
  /exceeds the maximum number of tokens allowed/i,
  /prompt is too long/i,
  /exceed context limit/i,
  /too many tokens in (the )?(prompt|input|request)/i,
];

const CONTEXT_LENGTH_CODES: ReadonlySet<string> = new Set([
  'context_length_exceeded',
  'exceed_context_size_error',
  'string_above_max_length_in_tokens',
  'model_context_window_exceeded',
]);

/**
 * True when an error's code, type or message says the request exceeded the model's context window.
 *
 * @example
 * isContextLengthError({ message: 'prompt is too long: 210000 tokens > 200000 maximum' }); // true
 */
export function isContextLengthError(error: { code?: unknown; type?: unknown; message?: unknown }): boolean {
  if (typeof error.code === 'string' && CONTEXT_LENGTH_CODES.has(error.code)) return true;
  if (typeof error.type === 'string' && CONTEXT_LENGTH_CODES.has(error.type)) return true;
  if (typeof error.message !== 'string') return false;
  const message = error.message;
  return CONTEXT_LENGTH_PATTERNS.some((pattern) => pattern.test(message));
}
