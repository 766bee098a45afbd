/**
 * A provider's real host routed to a fake model server (as providerRoute.ts does), keeping what
 * the page was sent back: for each call, the request body and the answer's text, read as a chat
 * completion (whole, or server-sent events put together). The fake names each completion after
 * the request it answered (`chatcmpl-fake-<index>`), so an answer is tied to the fake's own
 * record (server.requests[index]) whatever order the calls finished in.
 */
import type { BrowserContext } from 'playwright-core';
import type { ChatRequestBody, FakeModelServer } from '../../fixtures/fakeModelServer';

export interface LoggedCall {
  method: string;
  /** The path on the provider's host, e.g. /v1/chat/completions. */
  path: string;
  status: number;
  /** The request's JSON body; null for a GET. */
  body: ChatRequestBody | null;
  /** The answer as the fake sent it. */
  text: string;
  /** A chat completion's reply, read from `text`; null for anything else (a list, a refusal). */
  reply: ReadReply | null;
  /** A refusal's error object ({message, param, code...}); null for a 2xx. */
  error: Record<string, unknown> | null;
}

export interface ReadReply {
  /** The fake's request index, from the completion's id; -1 when the id names none. */
  index: number;
  /** The reply's content, streamed pieces joined. */
  content: string;
  /** The last finish_reason sent; null when none was (a stream that ended without one). */
  finishReason: string | null;
  streamed: boolean;
}

const indexOf = (id: unknown) => {
  const match = typeof id === 'string' ? /^chatcmpl-fake-(\d+)$/.exec(id) : null;
  return match ? Number(match[1]) : -1;
};

type Choice = {
  message?: { content?: unknown };
  delta?: { content?: unknown };
  finish_reason?: unknown;
};

/** A chat completion's text (JSON or server-sent events) read as a reply; null if it is none. */
export function readReply(text: string): ReadReply | null {
  if (text.trimStart().startsWith('data:') || text.includes('\ndata:')) {
    let index = -1;
    let content = '';
    let finishReason: string | null = null;
    for (const line of text.split('\n')) {
      const data = /^data:\s?(.*)$/.exec(line.trim())?.[1];
      if (data === undefined || data === '[DONE]') continue;
      const chunk = JSON.parse(data) as { id?: unknown; choices?: Choice[] };
      if (index === -1) index = indexOf(chunk.id);
      const choice = chunk.choices?.[0];
      if (typeof choice?.delta?.content === 'string') content += choice.delta.content;
      if (typeof choice?.finish_reason === 'string') finishReason = choice.finish_reason;
    }
    return { index, content, finishReason, streamed: true };
  }
  try {
    const whole = JSON.parse(text) as { id?: unknown; choices?: Choice[] };
    const choice = whole.choices?.[0];
    if (!choice) return null;
    return {
      index: indexOf(whole.id),
      content: typeof choice.message?.content === 'string' ? choice.message.content : '',
      finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
      streamed: false,
    };
  } catch {
    return null;
  }
}

/**
 * Sends every request for `realBaseUrl`'s origin to the fake and fulfils it with the fake's
 * answer; returns the calls, in the order they were answered.
 */
export async function logProviderHost(
  context: BrowserContext,
  realBaseUrl: string,
  fake: FakeModelServer,
): Promise<LoggedCall[]> {
  const realOrigin = new URL(realBaseUrl).origin;
  const fakeOrigin = new URL(fake.url).origin;
  const calls: LoggedCall[] = [];
  await context.route(`${realOrigin}/**`, async (routed) => {
    const request = routed.request();
    const url = request.url();
    const response = await routed.fetch({ url: fakeOrigin + url.slice(realOrigin.length) });
    const text = await response.text();
    const status = response.status();
    let error: Record<string, unknown> | null = null;
    if (status >= 400) {
      try {
        error = (JSON.parse(text) as { error?: Record<string, unknown> }).error ?? {};
      } catch {
        error = { message: text };
      }
    }
    calls.push({
      method: request.method(),
      path: new URL(url).pathname,
      status,
      body: request.method() === 'GET' ? null : (request.postDataJSON() as ChatRequestBody),
      text,
      reply: status < 300 && url.endsWith('/chat/completions') ? readReply(text) : null,
      error,
    });
    await routed.fulfill({ response });
  });
  return calls;
}
