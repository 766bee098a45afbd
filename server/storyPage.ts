/**
 * The published story's page, /story/<id>, with Open Graph tags (DESIGN.md, "Cloud saves and
 * published stories"): a link shared in a chat or a post shows the story's title, its opening
 * lines and the character's portrait, which the SPA alone cannot give a crawler that runs no
 * script. The row is read as the anon role, so the migrations' row-level security decides what
 * a visitor may see here as it does for the page's own request.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { PORTRAIT_COUNT } from '../common/portraits';
import { isStoryId, storyPath, storyTitle } from '../common/publishedStory';
import { withClaims, type Database } from './db';

/** About this many characters of the first paragraph go into the description. */
export const DESCRIPTION_CHARS = 200;
/** The portraits are 256 × 256 (scripts/generate-portraits.ts). */
const PORTRAIT_SIZE = 256;
const SITE_NAME = 'Taleweaver';
const OG_LOCALES: Record<string, string> = { en: 'en_US', kr: 'ko_KR' };
const HTML_LANGS: Record<string, string> = { en: 'en', kr: 'ko' };

/** What a link preview shows of a published story. */
export interface StoryPreview {
  id: string;
  title: string;
  description: string;
  language: string;
  portrait: number;
  /** The story's opening picture, when it has one: the link's image in the portrait's place. */
  openingPicture: { width: number; height: number } | null;
}

/** Where the Node server serves a published story's opening picture (its Open Graph image). */
export const openingPicturePath = (id: string) => `${storyPath(id)}/opening-picture`;

/** A published story's opening picture is cached a few minutes: it may be drawn again. */
export const PICTURE_CACHE_CONTROL = 'public, max-age=300';

/**
 * A published story's opening picture (migration 20261128000000_story_pictures.sql), read as
 * the anon role so that row-level security decides: null when the story is not published, or
 * has none.
 */
export async function readOpeningPicture(
  db: Database,
  id: string,
): Promise<{ mediaType: string; bytes: Buffer } | null> {
  if (!isStoryId(id)) return null;
  const { rows } = await withClaims(db, { role: 'anon' }, (client) =>
    client.query<{ media_type: string; data: string }>(
      `select picture.media_type, picture.data from public.story_pictures as picture
       where picture.story_id = $1 and picture.turn = 0`,
      [id],
    ),
  );
  const row = rows[0];
  if (row === undefined) return null;
  return { mediaType: row.media_type, bytes: Buffer.from(row.data, 'base64') };
}

/**
 * The story id a page path names (/story/<id>, a trailing slash allowed), whether or not it is
 * a well-formed one; null for any other path.
 */
export function storyIdOfPath(pathname: string): string | null {
  return /^\/story\/([^/]+)\/?$/.exec(pathname)?.[1] ?? null;
}

/** The published story's preview, or null when no published story has this id. */
export async function readStoryPreview(db: Database, id: string): Promise<StoryPreview | null> {
  if (!isStoryId(id)) return null;
  const { rows } = await withClaims(db, { role: 'anon' }, (client) =>
    client.query<{
      id: string;
      character_name: string;
      genre: string;
      language: string;
      portrait: number;
      opening: string | null;
      picture_width: number | null;
      picture_height: number | null;
    }>(
      // Only the first paragraph leaves the database, however long the story.
      `select page.id, page.character_name, page.genre, page.language, page.portrait,
         (select entry ->> 'text'
            from jsonb_array_elements(page.entries) with ordinality as entries (entry, position)
            where entry ->> 'kind' = 'paragraph'
            order by position
            limit 1) as opening,
         picture.width as picture_width, picture.height as picture_height
       from public.published_stories as page
       left join public.story_pictures as picture on picture.story_id = page.id and picture.turn = 0
       where page.id = $1`,
      [id],
    ),
  );
  const row = rows[0];
  if (row === undefined) return null;
  const title = storyTitle(row.character_name, row.genre) || SITE_NAME;
  return {
    id: row.id,
    title,
    description: openingLines(row.opening ?? '') || title,
    language: row.language,
    portrait:
      Number.isInteger(row.portrait) && row.portrait >= 1 && row.portrait <= PORTRAIT_COUNT
        ? row.portrait
        : 1,
    openingPicture:
      row.picture_width !== null && row.picture_height !== null
        ? { width: row.picture_width, height: row.picture_height }
        : null,
  };
}

/** The paragraph's first DESCRIPTION_CHARS characters or so, cut at a word, on one line. */
export function openingLines(paragraph: string, limit = DESCRIPTION_CHARS): string {
  const text = paragraph.replace(/\s+/g, ' ').trim();
  // Characters, not UTF-16 units: a cut never splits an emoji.
  const characters = Array.from(text);
  if (characters.length <= limit) return text;
  const cut = characters.slice(0, limit).join('');
  const lastSpace = cut.lastIndexOf(' ');
  // Korean has spaces between words too; a text without any is cut where it reaches the limit.
  return `${(lastSpace > limit / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/** Text made safe for an HTML attribute value or element content. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The app's page with the story's title, language and Open Graph tags. `origin` is the site's
 * own (SITE_URL, else the request's), since crawlers need absolute URLs. Every value from the
 * story is escaped, and each is put in by a function, so no `$&` in a story is read as a
 * replacement pattern.
 */
export function withStoryTags(html: string, story: StoryPreview, origin: string): string {
  const url = `${origin}${storyPath(story.id)}`;
  // The opening picture where the story has one (served by this server), else the portrait.
  const picture = story.openingPicture;
  const image = picture
    ? `${origin}${openingPicturePath(story.id)}`
    : `${origin}/characters/${story.portrait}.png`;
  const meta = (attribute: 'name' | 'property', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;
  const tags = [
    meta('name', 'description', story.description),
    meta('property', 'og:type', 'article'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', story.title),
    meta('property', 'og:description', story.description),
    meta('property', 'og:url', url),
    meta('property', 'og:image', image),
    meta('property', 'og:image:width', String(picture?.width ?? PORTRAIT_SIZE)),
    meta('property', 'og:image:height', String(picture?.height ?? PORTRAIT_SIZE)),
    meta('property', 'og:locale', OG_LOCALES[story.language] ?? 'en_US'),
    // The portrait is square: the summary card; a picture of the story, the wide one.
    meta('name', 'twitter:card', picture ? 'summary_large_image' : 'summary'),
    `<link rel="canonical" href="${escapeHtml(url)}">`,
  ].join('');
  const title = `<title>${escapeHtml(`${story.title} · ${SITE_NAME}`)}</title>`;
  const lang = HTML_LANGS[story.language] ?? 'en';
  const withTitle = html
    .replace(
      /<html([^>]*?)\slang="[^"]*"/i,
      (_match, before: string) => `<html${before} lang="${lang}"`,
    )
    // The site's own description gives way to the story's.
    .replace(/<meta\s+name="description"[^>]*>/i, () => '')
    .replace(/<title>[^<]*<\/title>/i, () => title);
  return withTitle.includes('</head>')
    ? withTitle.replace('</head>', () => `${tags}</head>`)
    : withTitle.replace(title, () => `${title}${tags}`);
}

/**
 * The built index.html, read from disk once, and again only when a new build has replaced it
 * (its modification time changed), so a story page never names another build's scripts.
 */
export class PageTemplate {
  private cached: { mtimeMs: number; html: Promise<string> } | null = null;

  constructor(private readonly file: string) {}

  static of(distDir: string): PageTemplate {
    return new PageTemplate(path.join(distDir, 'index.html'));
  }

  async html(): Promise<string> {
    const { mtimeMs } = await fs.stat(this.file);
    if (this.cached?.mtimeMs !== mtimeMs) {
      const html = fs.readFile(this.file, 'utf8').catch((error: unknown) => {
        // Read again next time rather than keep the failure.
        this.cached = null;
        throw error;
      });
      this.cached = { mtimeMs, html };
    }
    return this.cached.html;
  }
}
