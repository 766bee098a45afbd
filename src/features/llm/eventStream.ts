/**
 * A streamed reply: the server-sent events of OpenAI's streaming format, read chunk by chunk
 * as they arrive and framed by serverSentEvents.ts. The story text so far goes to the caller
 * each time more of it comes; a reasoning model's thinking (in a reasoning field, or a <think>
 * block at the start of the content) is only reported as thinking, never shown. A stream is
 * complete once a [DONE] or a finish_reason has arrived; one that ends before either, or that
 * carries an error event, broke off and becomes StreamInterruptedError with the text it had so
 * far; one whose finish_reason is 'length' was cut off by its output limit (the client then
 * rejects with ReplyCutOffError).
 *
 * The usage comes last: on the finishing chunk (Groq), or on a chunk of its own after it
 * (OpenAI, OpenRouter; usage.ts). So the stream is read on past the finish_reason until the
 * usage, a [DONE] or the stream's end, but only for so long: a server that finishes the reply
 * and then stalls does not hold the turn (USAGE_WAIT_MS), and the reply is the reply.
 */
import { stillThinking } from '../../engine/reply';
import { ProviderError, StreamInterruptedError, isAbortError } from './errors';
import { errorOf, parseJson, redactKey, textOf } from './failure';
import type { CompletionRequest } from './requests';
import { eventReader } from './serverSentEvents';
import { usageOf, type TokenUsage } from './usage';

/** The longest a finished stream is waited on for its usage (ms): then the turn goes on. */
export const USAGE_WAIT_MS = 2000;

interface StreamState {
  text: string;
  reasoning: boolean;
  /** The reply is complete: a finish_reason or a [DONE] arrived. */
  finished: boolean;
  /** The stream said it has nothing more ([DONE]). */
  done: boolean;
  /** The output limit ended the reply (finish_reason 'length'). */
  cutOff: boolean;
  usage: TokenUsage | null;
}

/** A whole streamed reply, whether its output limit cut it off, and what it used if it said. */
export interface StreamedReply {
  text: string;
  cutOff: boolean;
  usage: TokenUsage | null;
}

/** One server-sent event's data: a completion chunk, an error, or the closing [DONE]. */
function applyEvent(data: string, state: StreamState, status: number, apiKey: string): void {
  if (data === '[DONE]') {
    state.finished = true;
    state.done = true;
    return;
  }
  const chunk = parseJson(data) as Record<string, unknown> | undefined;
  if (typeof chunk !== 'object' || chunk === null) return;
  // An error after the reply finished costs only its usage.
  if (chunk.error !== undefined && !state.finished) {
    // The provider's upstream failed mid-reply (OpenRouter documents such events): the reply
    // was cut off, and is asked for again like a dropped connection.
    const { message, ...details } = errorOf(chunk, 'The provider reported an error mid-stream');
    const cause = new ProviderError(status, redactKey(message, apiKey), details);
    throw new StreamInterruptedError(state.text, { cause });
  }
  state.usage = usageOf(chunk) ?? state.usage;
  // Usage-only chunks (OpenAI's stream_options, OpenRouter's last) have no choices.
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

/** The next piece of the stream, or 'late' when none came by `deadline` (a Date.now() time). */
async function readBy(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  deadline: number,
): Promise<ReadableStreamReadResult<Uint8Array> | 'late'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([reader.read(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads an event stream of completion chunks (OpenAI's streaming format). Complete once a
 * [DONE] or a finish_reason has arrived; a stream that ends before either broke off
 * (StreamInterruptedError). After the finish_reason, waits at most `usageWaitMs` for the usage.
 */
export async function readEventStream(
  response: Response,
  request: CompletionRequest,
): Promise<StreamedReply> {
  const { signal, apiKey, onText, onReasoning, usageWaitMs = USAGE_WAIT_MS } = request;
  const state: StreamState = {
    text: '',
    reasoning: false,
    finished: false,
    done: false,
    cutOff: false,
    usage: null,
  };
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
  /** When waiting for the usage stops: set once the reply has finished. */
  let usageDeadline: number | null = null;

  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array> | 'late';
      try {
        chunk = usageDeadline === null ? await reader.read() : await readBy(reader, usageDeadline);
      } catch (error) {
        if (signal.aborted || isAbortError(error)) throw error;
        // The reply was whole before the connection went: only its usage is lost.
        if (state.finished) break;
        throw new StreamInterruptedError(state.text, { cause: error });
      }
      if (chunk === 'late' || chunk.done) break;
      events.feed(decoder.decode(chunk.value, { stream: true }));
      if (state.done || (state.finished && state.usage !== null)) break;
      if (state.finished) usageDeadline ??= Date.now() + usageWaitMs;
    }
    events.feed(decoder.decode());
    events.end();
  } finally {
    reader.cancel().catch(() => undefined);
  }
  if (!state.finished) throw new StreamInterruptedError(state.text);
  return { text: state.text, cutOff: state.cutOff, usage: state.usage };
}
