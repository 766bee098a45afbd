/**
 * The allow-list of the REST API: the tables, columns and functions the app uses (SPEC.md
 * section 7, Backend). Anything else is refused before it reaches the database; what passes
 * is then decided by the database's own grants and row-level security.
 */
export interface TableRules {
  /** Columns a select may name; `*` means all of these, never a column left out. */
  readable: readonly string[];
  insertable: readonly string[];
  updatable: readonly string[];
  /** Whether a DELETE may remove rows (with a filter, under row-level security). */
  deletable?: boolean;
  /** Columns whose values are JSON documents. */
  json?: readonly string[];
  /**
   * Every reader sees the same rows (no row-level security on it), so concurrent reads share
   * one query (server/sharedReads.ts).
   */
  sameForEveryone?: boolean;
}

export const TABLES: Readonly<Record<string, TableRules>> = {
  users: {
    readable: ['wallet_address', 'username', 'twitter_followed', 'created_at', 'updated_at'],
    insertable: [],
    updatable: ['username', 'twitter_followed'],
  },
  game_results: {
    readable: [
      'id',
      'wallet_address',
      'score',
      'ending_type',
      'character_name',
      'genre',
      'turn_count',
      'detailed_stats',
      'created_at',
    ],
    insertable: [
      'wallet_address',
      'score',
      'ending_type',
      'character_name',
      'genre',
      'turn_count',
      'detailed_stats',
      'story_id',
    ],
    updatable: [],
    json: ['detailed_stats'],
  },
  leaderboard: {
    readable: [
      'wallet_address',
      'score',
      'ending_type',
      'character_name',
      'created_at',
      'genre',
      'turn_count',
      'rewrites',
      'published_story_id',
    ],
    insertable: [],
    updatable: [],
    sameForEveryone: true,
  },
  /** Cloud saves: written through save_story and publish_story, read and deleted here. */
  stories: {
    readable: [
      'id',
      'wallet_address',
      'revision',
      'saved_at',
      'updated_at',
      'language',
      'head',
      'copy_of',
      'published_at',
    ],
    insertable: [],
    updatable: [],
    deletable: true,
  },
  story_parts: {
    readable: ['story_id', 'list', 'index', 'value'],
    insertable: [],
    updatable: [],
  },
  /** A cloud story's pictures: written through save_story_picture, read and deleted here. */
  story_pictures: {
    readable: [
      'story_id',
      'turn',
      'moment',
      'media_type',
      'data',
      'bytes',
      'width',
      'height',
      'alt',
      'model',
      'created_at',
    ],
    insertable: [],
    updatable: [],
    deletable: true,
  },
  published_stories: {
    readable: [
      'id',
      'language',
      'genre',
      'portrait',
      'character_name',
      'author',
      'entries',
      'recap',
      'score',
      'ending_type',
      'turn_count',
      'published_at',
    ],
    insertable: [],
    updatable: [],
  },
};

/** Callable functions and the argument names each accepts. */
export const FUNCTIONS: Readonly<Record<string, readonly string[]>> = {
  create_user_if_not_exists: ['p_wallet_address', 'p_nonce'],
  /** The wallet-login function's, with the secret key (granted to service_role only). */
  admit_sign_in: ['p_request_headers'],
  spend_sign_in_nonce: ['p_wallet_address', 'p_nonce', 'p_max_age_seconds'],
  save_story: [
    'p_id',
    'p_base_revision',
    'p_saved_at',
    'p_language',
    'p_head',
    'p_lengths',
    'p_parts',
    'p_copy_of',
  ],
  publish_story: ['p_id', 'p_published'],
  save_story_picture: [
    'p_story_id',
    'p_turn',
    'p_moment',
    'p_media_type',
    'p_data',
    'p_width',
    'p_height',
    'p_alt',
    'p_model',
    'p_created_at',
  ],
};

/** PostgREST filter operators the app uses, and their SQL. */
export const OPERATORS: Readonly<Record<string, string>> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
};

export const MAX_LIMIT = 1000;
export const MAX_INSERT_ROWS = 100;
