/**
 * Node's HTTP requests as Web-standard Requests and back, so a `(Request) => Promise<Response>`
 * handler (an Edge Function's shape) can answer on a Node server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

export type WebHandler = (request: Request) => Promise<Response>;

/** Headers that describe one hop, not the request; fetch sets its own. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** The request as a Request for `origin + its path`, its body streamed as it arrives. */
export function toWebRequest(incoming: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = incoming.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(incoming.url ?? '/', origin), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : null,
    // Node's fetch streams a request body only half-duplex (whatwg/fetch#1254).
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * The response's headers that describe its content, not its framing on one hop: the body is
 * re-sent whole and decoded, with a length of its own.
 */
export function contentHeaders(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!HOP_HEADERS.has(name) && name !== 'content-length' && name !== 'content-encoding') {
      headers[name] = value;
    }
  });
  return headers;
}

/** Writes the Response out on a plain Node server. */
export async function sendWebResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers = contentHeaders(response);
  const body = Buffer.from(await response.arrayBuffer());
  outgoing.writeHead(response.status, { ...headers, 'content-length': body.length });
  outgoing.end(body);
}
