/**
 * A language-model client for saga tests: a plain object in the saga context (`model`) that
 * answers each request from a script, streams the text in pieces as a provider would, and
 * keeps every request it was asked. No server, no timers: a worker run with it ends as soon as
 * its flow does. The fake OpenAI-compatible server (test/fixtures/fakeModelServer.ts) stays the
 * strict stand-in for the provider itself; this is the stand-in for the client.
 */
import {
  ReplyCutOffError,
  type CompletionRequest,
  type ModelClient,
  type TokenUsage,
} from '../../src/features/llm';
import type { ChatRequestBody, CompletionReply } from '../fixtures/fakeModelServer';

/**
 * What the script answers: a reply (as the fake server's replies are written), an error, or
 * either of them later (a promise: the request waits for it, unless the flow aborts it first).
 */
export type ScriptedAnswer = CompletionReply | Error | Promise<CompletionReply | Error>;

/** A list of answers, in order, or a function of the request (the fake server's replies are). */
export type ModelScript = ScriptedAnswer[] | ((body: ChatRequestBody) => ScriptedAnswer);

export interface ScriptedModel extends ModelClient {
  /** Every completion asked for, as the body a provider would have received. */
  readonly requests: ChatRequestBody[];
  /** The completions the flow aborted before they were answered. */
  readonly aborted: ChatRequestBody[];
  /** The keys the spec's key check was asked with, in order. */
  readonly keysChecked: string[];
  /** The keys the model list was read with, in order. */
  readonly keysListedWith: string[];
  /** Whether each completion asked for more room (after a reply that was cut off). */
  readonly moreRoom: boolean[];
}

/** Characters per streamed piece. */
const PIECE = 16;

const bodyOf = (request: Omit<CompletionRequest, 'fetch'>): ChatRequestBody => ({
  model: request.model,
  messages: [
    ...(request.system ? [{ role: 'system', content: request.system }] : []),
    { role: 'user', content: request.prompt },
  ],
  max_tokens: request.replyTokens,
  stream: request.stream,
});

/** A held answer, or the AbortError a fetch rejects with when the flow aborts the request. */
function answerUnlessAborted(answer: ScriptedAnswer, signal: AbortSignal, onAbort: () => void) {
  const aborted = () => {
    onAbort();
    return new DOMException('The request was aborted.', 'AbortError');
  };
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<CompletionReply | Error>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(aborted()), { once: true });
    Promise.resolve(answer).then(resolve, reject);
  });
}

export interface ScriptOptions {
  /** The model ids the provider lists (GET /models). */
  listed?: string[];
  /** What the key check ends with: passes when absent. */
  keyCheck?: Error;
  /**
   * The usage the provider reports for each completion answered (none when absent or null), as
   * the client's onUsage tells it.
   */
  usage?: (body: ChatRequestBody, text: string) => TokenUsage | null;
  /** The per-minute token limit each answer states (a readable header), as onMinuteLimit tells it. */
  minuteLimit?: number;
}

export function scriptedModel(
  script: ModelScript,
  { listed = [], keyCheck, usage, minuteLimit }: ScriptOptions = {},
): ScriptedModel {
  const requests: ChatRequestBody[] = [];
  const aborted: ChatRequestBody[] = [];
  const keysChecked: string[] = [];
  const keysListedWith: string[] = [];
  const moreRoom: boolean[] = [];
  const answerTo = (body: ChatRequestBody): ScriptedAnswer => {
    if (typeof script === 'function') return script(body);
    const answer = script.shift();
    if (!answer) throw new Error(`The script has no answer for request ${requests.length}`);
    return answer;
  };
  return {
    requests,
    aborted,
    keysChecked,
    keysListedWith,
    moreRoom,
    async complete(request) {
      const body = bodyOf(request);
      requests.push(body);
      moreRoom.push(request.moreRoom === true);
      const answer = await answerUnlessAborted(answerTo(body), request.signal, () =>
        aborted.push(body),
      );
      if (minuteLimit !== undefined) request.onMinuteLimit?.(minuteLimit);
      // A reply cut off by its output limit came whole and was paid for: the client tells its
      // usage, then refuses it.
      if (answer instanceof ReplyCutOffError) {
        const reported = usage?.(body, answer.partial) ?? null;
        if (reported) request.onUsage?.(reported);
      }
      if (answer instanceof Error) throw answer;
      const text = typeof answer.json === 'string' ? answer.json : JSON.stringify(answer.json);
      if (request.stream) {
        for (let end = PIECE; end < text.length + PIECE; end += PIECE) {
          request.onText?.(text.slice(0, end));
        }
      }
      const reported = usage?.(body, text) ?? null;
      if (reported) request.onUsage?.(reported);
      return text;
    },
    async listModels(request) {
      keysListedWith.push(request.apiKey);
      return { object: 'list', data: listed.map((id) => ({ id, object: 'model' })) };
    },
    async checkKey(request) {
      keysChecked.push(request.apiKey);
      if (minuteLimit !== undefined) request.onMinuteLimit?.(minuteLimit);
      if (keyCheck) throw keyCheck;
    },
  };
}
