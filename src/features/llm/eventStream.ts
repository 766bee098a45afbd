/**
 * A streamed reply: the server-sent events of OpenAI's streaming format, read chunk by chunk
 * as they arrive and framed by serverSentEvents.ts. The story text so far goes to the caller
 * each time more of it comes; a reasoning model's thinking (in a reasoning field, or a <think>
 * block at the start of the content) is only reported as thinking, never shown. A stream is
 * complete once a [DONE] or a finish_reason has arrived; one that ends before either, or that
 * carries an error event, broke off and becomes StreamInterruptedError with the text it had so
 * far; one whose finish_reason is 'length' was cut off by its output limit (ReplyCutOffError).
 */
import { stillThinking } from '../../engine/reply';
import { ProviderError, ReplyCutOffError, StreamInterruptedError, isAbortError } from './errors';
import { errorOf, parseJson, redactKey, textOf } from './failure';
import type { CompletionRequest } from './requests';
import { eventReader } from './serverSentEvents';

interface StreamState {
  text: string;
  reasoning: boolean;
  finished: boolean;
  /** The output limit ended the reply (finish_reason 'length'). */
  cutOff: boolean;
}

/** One server-sent event's data: a completion chunk, an error, or the closing [DONE]. */
function applyEvent(data: string, state: StreamState, status: number, apiKey: string): void {
  if (data === '[DONE]') {
    state.finished = true;
    return;
  }
  const chunk = parseJson(data) as Record<string, unknown> | undefined;
  if (typeof chunk !== 'object' || chunk === null) return;
  if (chunk.error !== undefined) {
    // The provider's upstream failed mid-reply (OpenRouter documents such events): the reply
    // was cut off, and is asked for again like a dropped connection.
    const { message, ...details } = errorOf(chunk, 'The provider reported an error mid-stream');
    const cause = new ProviderError(status, redactKey(message, apiKey), details);
    throw new StreamInterruptedError(state.text, { cause });
  }
  // Usage-only chunks (Groq's x_groq, OpenAI's stream_options) have no choices: nothing to read.
  const choice = Array.isArray(chunk.choices)
    ? (chunk.choices[0] as Record<string, unknown> | undefined)
    : undefined;
  const delta = (choice?.delta ?? {}) as Record<string, unknown>;
  // Reasoning models think aloud first: Groq and OpenRouter in delta.reasoning, DeepSeek,
  // vLLM and LM Studio in delta.reasoning_content. It is never story text.
  if (textOf(delta.reasoning) !== null || textOf(delta.reasoning_content) !== null) {
    state.reasoning = true;
  }
  if (typeof delta.content === 'string') state.text += delta.content;
  if (typeof choice?.finish_reason === 'string') {
    state.finished = true;
    state.cutOff = choice.finish_reason === 'length';
  }
}

/**
 * Reads an event stream of completion chunks (OpenAI's streaming format). Complete once a
 * [DONE] or a finish_reason has arrived; a stream that ends before either was cut off.
 */
export async function readEventStream(
  response: Response,
  request: CompletionRequest,
): Promise<string> {
  const { signal, apiKey, onText, onReasoning } = request;
  const state: StreamState = { text: '', reasoning: false, finished: false, cutOff: false };
  if (!response.body) throw new StreamInterruptedError('');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  // The framing (lines, fields, comments such as ': keep-alive', multi-line data) is
  // serverSentEvents.ts'; each whole event's data is read here.
  const events = eventReader((data) => {
    const before = state.text;
    state.reasoning = false;
    applyEvent(data, state, response.status, apiKey);
    // Thinking shows as thinking, in a reasoning field or in a <think> block of the content.
    if (state.reasoning || (state.text !== before && stillThinking(state.text))) onReasoning?.();
    else if (state.text !== before) onText?.(state.text);
  });

  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal.aborted || isAbortError(error)) throw error;
        throw new StreamInterruptedError(state.text, { cause: error });
      }
      if (chunk.done) break;
      events.feed(decoder.decode(chunk.value, { stream: true }));
      if (state.finished) break;
    }
    events.feed(decoder.decode());
    events.end();
  } finally {
    reader.cancel().catch(() => undefined);
  }
  if (!state.finished) throw new StreamInterruptedError(state.text);
  if (state.cutOff) throw new ReplyCutOffError(state.text);
  return state.text;
}
