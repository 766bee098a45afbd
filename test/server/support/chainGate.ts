/**
 * A chain's JSON-RPC endpoint that a test can take down and bring back: a small proxy in front of
 * the local node, as a provider's endpoint is in front of its nodes. Down, it answers 503 (or
 * never, when `hang` is set), so a test can show that a sign-in waiting on the chain is refused
 * as "unavailable", keeps its nonce, and goes through once the chain answers again.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChainGate {
  url: string;
  state: 'up' | 'down' | 'hang';
  /** JSON-RPC requests that reached the node through the gate. */
  forwarded: number;
  close(): Promise<void>;
}

export async function startChainGate(nodeUrl: string): Promise<ChainGate> {
  const held = new Set<http.ServerResponse>();
  const gate: ChainGate = {
    url: '',
    state: 'up',
    forwarded: 0,
    close: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (gate.state === 'hang') {
        held.add(response);
        return;
      }
      if (gate.state === 'down') {
        response.writeHead(503, { 'content-type': 'text/plain' }).end('node unavailable');
        return;
      }
      gate.forwarded++;
      fetch(nodeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      })
        .then(async (answer) => {
          response
            .writeHead(answer.status, { 'content-type': 'application/json' })
            .end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gate.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return gate;
}
