/**
 * A static host for a build, as Cloudflare Pages and Netlify serve one: the files of dist/, the
 * headers of its _headers file by path (`/*` and `/assets/*` as prefixes, other paths exactly),
 * and the page for any other path (the client-side routes). No server code, no cookie read.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { readHeadersFile } from '../../../server/headerFiles';

export interface StaticHost {
  url: string;
  /** The directory served; the build may be written into it after the host starts. */
  dir: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.json': 'application/json',
};

const matches = (rule: string, urlPath: string) =>
  rule.endsWith('*') ? urlPath.startsWith(rule.slice(0, -1)) : urlPath === rule;

export async function startStaticHost(dir: string): Promise<StaticHost> {
  const server = http.createServer((request, response) => {
    const urlPath = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname);
    const file = path.join(dir, urlPath);
    const found =
      file.startsWith(dir) && fs.existsSync(file) && fs.statSync(file).isFile()
        ? file
        : path.join(dir, 'index.html');
    // Read at each request: the build is written after the host has started.
    const rules = readHeadersFile(fs.readFileSync(path.join(dir, '_headers'), 'utf8'));
    for (const [rule, headers] of Object.entries(rules)) {
      if (!matches(rule, urlPath)) continue;
      for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    }
    response.setHeader('Content-Type', TYPES[path.extname(found)] ?? 'application/octet-stream');
    response.end(fs.readFileSync(found));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dir,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
