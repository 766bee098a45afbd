/**
 * api.openai.com on this machine, for a benchmark that plays the OpenAI preset (whose address
 * the player cannot change, and whose pictures are drawn by the worker with the browser's own
 * fetch): an HTTPS server with a certificate made here for that name, which Chromium reaches
 * through its host-resolver rules and accepts with --ignore-certificate-errors (chromiumArgs),
 * in front of the fakes:
 * - /v1/images/*: the fake image server's answer, its picture swapped for `picture` (the fake
 *   draws a solid colour of a few kilobytes; a real gpt-image picture weighs megabytes);
 * - /v1/models: the fake model server's list with the image server's models added;
 * - everything else: the fake model server's, passed on as it comes, so that a streamed reply
 *   reaches the page streamed. A Playwright route cannot: it answers once a reply is whole.
 * Only for the benchmarks: openssl makes the certificate.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const HOST = 'api.openai.com';

export interface OpenAiHost {
  /** The flags that send the browser's api.openai.com here. */
  chromiumArgs: string[];
  /** Where the fakes are, once they run: the model server's origin and the image server's. */
  serve(fakes: { text: string; images: string }): void;
  close(): Promise<void>;
}

/** A throwaway key and self-signed certificate for HOST. */
function certificateForHost(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'openai-host-'));
  try {
    const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'],
        ...['-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2'],
        ...['-subj', `/CN=${HOST}`, '-addext', `subjectAltName=DNS:${HOST}`],
      ],
      // openssl's complaints, if it fails, in the error thrown.
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    return { key: readFileSync(keyFile), cert: readFileSync(certFile) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Headers that describe one connection, not the message: never passed on (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** A message's headers without its connection's (those and any its Connection header names). */
function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.includes(name)),
  );
}

/** The request's headers as the fake at `origin` is to get them. */
function headersFor(request: IncomingMessage, origin: string): http.OutgoingHttpHeaders {
  return { ...endToEnd(request.headers), host: new URL(origin).host };
}

/** What the page gets when a fake cannot be reached: a 502 it may read (CORS). */
function badGateway(response: ServerResponse, error: unknown) {
  console.error('api.openai.com (bench) could not answer', error);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(502, { 'access-control-allow-origin': '*' });
  response.end();
}

/**
 * The request passed on to `origin`, and its answer back as it comes: its headers at once (as
 * the fake sends them before its first token), then its body chunk by chunk. A page that goes
 * away stops the request to the fake; a fake that breaks off breaks off the page's answer.
 */
function passOn(request: IncomingMessage, response: ServerResponse, origin: string) {
  const target = new URL(request.url ?? '/', origin);
  const onward = http.request(
    target,
    { method: request.method, headers: headersFor(request, origin) },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      response.flushHeaders();
      pipeline(answer, response).catch(() => undefined);
    },
  );
  onward.on('error', (error) => badGateway(response, error));
  response.on('close', () => {
    if (!response.writableFinished) onward.destroy();
  });
  pipeline(request, onward).catch(() => undefined);
}

/** The request as `origin` answers it, whole: its status, headers and body. */
async function askWhole(request: IncomingMessage, body: Buffer, origin: string) {
  const headers = headersFor(request, origin);
  // fetch frames the body itself.
  delete headers['content-length'];
  const answer = await fetch(new URL(request.url ?? '/', origin), {
    method: request.method,
    headers: headers as Record<string, string>,
    ...(body.length > 0 && { body: new Uint8Array(body) }),
  });
  // fetch has taken the body's framing and compression off: its length is the new body's.
  const answered = Object.fromEntries(
    [...answer.headers].filter(
      ([name]) => !HOP_BY_HOP.has(name) && !['content-length', 'content-encoding'].includes(name),
    ),
  );
  return { status: answer.status, headers: answered, text: await answer.text() };
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

type Listing = { data: { id: string }[] };

/** Starts api.openai.com here; `picture` (base64) is what every drawn picture becomes. */
export async function startOpenAiHost(picture: string): Promise<OpenAiHost> {
  let fakes: { text: string; images: string } | null = null;

  async function answer(request: IncomingMessage, response: ServerResponse) {
    if (!fakes) throw new Error('api.openai.com was asked before its fakes were running');
    const { text, images } = fakes;
    const url = request.url ?? '/';
    const drawing = url.startsWith('/v1/images/');
    const listing = request.method === 'GET' && /^\/v1\/models(\?|$)/.test(url);
    if (!drawing && !listing) {
      passOn(request, response, text);
      return;
    }
    const body = await bodyOf(request);
    const send = (status: number, headers: Record<string, string>, json: string) => {
      response.writeHead(status, headers);
      response.end(json);
    };
    if (drawing) {
      const drawn = await askWhole(request, body, images);
      if (drawn.status !== 200) return send(drawn.status, drawn.headers, drawn.text);
      const json = JSON.parse(drawn.text) as { data?: { b64_json?: string }[] };
      if (typeof json.data?.[0]?.b64_json === 'string') json.data[0].b64_json = picture;
      return send(200, drawn.headers, JSON.stringify(json));
    }
    const [chat, draws] = await Promise.all([
      askWhole(request, body, text),
      askWhole(request, body, images),
    ]);
    if (chat.status !== 200 || draws.status !== 200) {
      const failed = chat.status !== 200 ? chat : draws;
      return send(failed.status, failed.headers, failed.text);
    }
    const listed = JSON.parse(chat.text) as Listing;
    const ids = new Set(listed.data.map((model) => model.id));
    const more = (JSON.parse(draws.text) as Listing).data.filter((model) => !ids.has(model.id));
    return send(200, chat.headers, JSON.stringify({ ...listed, data: [...listed.data, ...more] }));
  }

  const server = https.createServer(certificateForHost(), (request, response) => {
    answer(request, response).catch((error: unknown) => badGateway(response, error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    chromiumArgs: [
      `--host-resolver-rules=MAP ${HOST}:443 127.0.0.1:${port}`,
      '--ignore-certificate-errors',
    ],
    serve(running) {
      fakes = running;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
