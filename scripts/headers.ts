/**
 * `npm run headers`: the security headers for this build's SUPABASE_URL and CONNECT_SRC, as
 * nginx, Caddy and dist/_headers write them (for a host the README does not cover, or to check
 * a deployment). `npm run headers -- --readme` rewrites the README's examples instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { builtHeaderOptions, caddyHeaders, headersFile, nginxHeaders } from '../server/headerFiles';
import { securityHeaders } from '../server/securityHeaders';
import { withExpectedBlocks } from './headerBlocks';

const readmePath = path.join(__dirname, '..', 'README.md');

if (process.argv.includes('--readme')) {
  const readme = fs.readFileSync(readmePath, 'utf8');
  const updated = withExpectedBlocks(readme);
  fs.writeFileSync(readmePath, updated);
  console.log(updated === readme ? 'README.md: already up to date' : 'README.md: rewritten');
} else {
  const headers = securityHeaders(builtHeaderOptions(process.env));
  console.log(`# nginx (server block)\n${nginxHeaders(headers)}\n`);
  console.log(`# Caddy (site block)\n${caddyHeaders(headers)}\n`);
  console.log(`# dist/_headers (Cloudflare Pages, Netlify)\n${headersFile(headers)}`);
}
