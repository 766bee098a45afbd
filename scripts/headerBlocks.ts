/**
 * The README's nginx and Caddy examples, printed from server/securityHeaders.ts between marker
 * comments (`<!-- headers:nginx -->` ... `<!-- /headers:nginx -->`), so that they cannot drift
 * from what the Node server and dist/_headers send (test/scripts/headerBlocks.test.ts).
 */
import { caddyHeaders, nginxHeaders } from '../server/headerFiles';
import {
  securityHeaders,
  type HeaderSet,
  type SecurityHeaderOptions,
} from '../server/securityHeaders';

/** What the README's examples show: a build for a hosted project, served over https. */
export const README_EXAMPLE: SecurityHeaderOptions = {
  backendOrigin: 'https://your-project-ref.supabase.co',
  connectSources: [],
  https: true,
};

const BLOCKS = {
  nginx: (headers: HeaderSet) => fenced('nginx', nginxHeaders(headers)),
  caddy: (headers: HeaderSet) => fenced('caddyfile', caddyHeaders(headers)),
};
export type BlockName = keyof typeof BLOCKS;
export const BLOCK_NAMES = Object.keys(BLOCKS) as BlockName[];

const fenced = (language: string, text: string) => `\`\`\`${language}\n${text}\n\`\`\``;

/** A block's place: between its markers, with a blank line on either side (as Prettier has it). */
function markers(name: BlockName): RegExp {
  return new RegExp(`(<!-- headers:${name} -->\\n)([\\s\\S]*?)(\\n<!-- /headers:${name} -->)`);
}

/** Each block as the README has it now, fences included. */
export function readmeBlocks(readme: string): Record<BlockName, string> {
  const entries = BLOCK_NAMES.map((name) => {
    const match = markers(name).exec(readme);
    if (!match) throw new Error(`README.md has no <!-- headers:${name} --> block`);
    return [name, match[2]!.trim()];
  });
  return Object.fromEntries(entries) as Record<BlockName, string>;
}

/** Each block as it should read, for the README's example build. */
export function expectedBlocks(options = README_EXAMPLE): Record<BlockName, string> {
  const headers = securityHeaders(options);
  const entries = BLOCK_NAMES.map((name) => [name, BLOCKS[name](headers)]);
  return Object.fromEntries(entries) as Record<BlockName, string>;
}

/** The README with every block printed anew. */
export function withExpectedBlocks(readme: string): string {
  readmeBlocks(readme); // every marker is there
  const expected = expectedBlocks();
  return BLOCK_NAMES.reduce(
    (text, name) =>
      text.replace(
        markers(name),
        (_all, start, _old, end) => `${start}\n${expected[name]}\n${end}`,
      ),
    readme,
  );
}
