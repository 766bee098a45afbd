-- Stories kept with the wallet, and the ones their players publish (DESIGN.md, "Cloud saves and
-- published stories"). A saved story is kept as the browser keeps it (MyStoriesDB): the record
-- without its growing lists in stories.head, and each entry of those lists (its paragraphs and
-- choices, its memory, its rolls) as one row of story_parts, so that a turn's save sends the
-- turn's few new entries, not the whole story again. Only the story's wallet reads, writes or
-- deletes either. The database holds the bounds: at most 100 stories a wallet, at most 1 MB a
-- story (its JSON text), and at most 60 writes a wallet a minute (the hosted path keeps nothing
-- between requests, so the count is here, as sign-in's is).
--
-- A published story is copied, its public fields only, into published_stories, which anyone may
-- read: the title's parts (character name, genre, portrait), the paragraphs and the choices with
-- their outcomes, the recap and the score, and the wallet's short form. Never the memory, its
-- corrections or the pinned note. The copy is kept by a trigger as the story is published,
-- changed, unpublished or deleted, so the page reads a table under row-level security, as the
-- leaderboard does, and no visitor-callable definer function or definer view is added.

create table public.stories (
  id uuid primary key,
  wallet_address text not null references public.users (wallet_address) on delete cascade,
  -- Each accepted save adds one; a save made on an older revision is refused (save_story).
  revision integer not null constraint stories_revision_range check (revision >= 1),
  -- When the player's browser saved it (the record's lastSaved).
  saved_at timestamptz not null,
  updated_at timestamptz not null default now(),
  -- The interface language it was played in, which its prompts followed.
  language text not null constraint stories_language check (language in ('en', 'kr')),
  -- The saved record without its lists (MyStoriesDB's 'stories' record).
  head jsonb not null constraint stories_head_object check (pg_catalog.jsonb_typeof(head) = 'object'),
  head_bytes integer generated always as (pg_catalog.octet_length(head::text)) stored,
  -- The story this one was kept as a copy of, when two devices played it on at once.
  copy_of uuid,
  published_at timestamptz,
  -- Only a finished story is published (its ending is what a reader comes for).
  constraint stories_published_when_finished check (
    published_at is null or (head ->> 'isFinal')::boolean is true
  )
);

create index stories_wallet_address_idx on public.stories (wallet_address, saved_at desc);

comment on table public.stories is
  'Saved stories kept with their wallet (cloud saves): the record without its lists; the lists '
  'are in story_parts. Written through save_story, published through publish_story.';

create table public.story_parts (
  story_id uuid not null references public.stories (id) on delete cascade,
  list text not null constraint story_parts_list check (
    list in ('storyLog', 'storySummary', 'outcomes', 'moralChoices', 'scenarioHistory')
  ),
  index integer not null constraint story_parts_index_range check (index between 0 and 99999),
  value jsonb not null,
  bytes integer generated always as (pg_catalog.octet_length(value::text)) stored,
  primary key (story_id, list, index)
);

comment on table public.story_parts is
  'One entry of one of a cloud story''s growing lists: stories.head plus its parts is the story.';

alter table public.stories enable row level security;
alter table public.story_parts enable row level security;

create policy "players keep their own stories" on public.stories
for all to authenticated
using (wallet_address = (select auth.jwt()) ->> 'wallet_address')
with check (wallet_address = (select auth.jwt()) ->> 'wallet_address');

create policy "players keep their own stories' parts" on public.story_parts
for all to authenticated
using (
  exists (
    select 1 from public.stories as story
    where story.id = story_id and story.wallet_address = (select auth.jwt()) ->> 'wallet_address'
  )
)
with check (
  exists (
    select 1 from public.stories as story
    where story.id = story_id and story.wallet_address = (select auth.jwt()) ->> 'wallet_address'
  )
);

-- Bounds the players' own requests cannot get around: checked with the writer's rights (the
-- writer sees exactly their own stories), at the end of the transaction, once its parts are in.
create function public.story_limits_error(p_code text, p_message text, p_status integer)
returns text
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.json_build_object(
    'code', p_code, 'message', p_message, 'details', null, 'hint', null
  )::text
$$;

create function public.check_story_bounds() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  target uuid;
  total bigint;
  owner text;
  kept bigint;
begin
  if tg_table_name = 'stories' then
    target := new.id;
  else
    target := new.story_id;
  end if;
  select story.head_bytes + coalesce(
      (select sum(part.bytes) from public.story_parts as part where part.story_id = story.id), 0
    ), story.wallet_address
  into total, owner
  from public.stories as story
  where story.id = target;
  if total > 1048576 then
    raise sqlstate 'PGRST' using
      message = public.story_limits_error(
        'story_too_large', 'A story kept with a wallet may hold at most 1 MB', 413
      ),
      detail = '{"status": 413, "headers": {}}';
  end if;
  if tg_table_name = 'stories' and tg_op = 'INSERT' then
    select pg_catalog.count(*) into kept from public.stories as story
    where story.wallet_address = owner;
    if kept > 100 then
      raise sqlstate 'PGRST' using
        message = public.story_limits_error(
          'story_limit', 'A wallet may keep at most 100 stories', 403
        ),
        detail = '{"status": 403, "headers": {}}';
    end if;
  end if;
  return null;
end
$$;

create constraint trigger stories_1_bounds
after insert or update of head on public.stories
deferrable initially deferred
for each row execute function public.check_story_bounds();

create constraint trigger story_parts_1_bounds
after insert or update of value on public.story_parts
deferrable initially deferred
for each row execute function public.check_story_bounds();

-- Two saves of one wallet's new stories at once must not both count 99: they take turns.
create function public.serialize_wallet_stories() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('stories:' || new.wallet_address));
  return new;
end
$$;

create trigger stories_0_serialize_wallet
before insert on public.stories
for each row execute function public.serialize_wallet_stories();

-- Writes per wallet per minute, counted once per transaction (a save is one, whatever it
-- writes). Past minutes are deleted as new ones are counted.
create table public.story_writes (
  wallet_address text not null,
  minute timestamptz not null,
  writes integer not null,
  primary key (wallet_address, minute)
);

create index story_writes_minute_idx on public.story_writes (minute);

alter table public.story_writes enable row level security;
revoke all on table public.story_writes from public, anon, authenticated;
grant all on table public.story_writes to service_role;

-- 60 a minute, or the Node server's STORY_WRITE_RATE_LIMIT passed per transaction.
create function public.story_write_rate_limit() returns integer
language sql
stable
set search_path = ''
as $$
  select coalesce(
    nullif(pg_catalog.current_setting('taleweaver.story_write_rate_limit', true), '')::integer,
    60
  )
$$;

-- Runs as its owner (players may not touch the counts); no role may call it, it only fires.
create function public.count_story_write() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  writer constant text := (select auth.jwt()) ->> 'wallet_address';
  this_minute constant timestamptz := pg_catalog.date_trunc('minute', pg_catalog.now());
  wait_seconds integer;
begin
  -- The project's own keys and the migrations write without a wallet: not counted.
  if writer is null
    or pg_catalog.current_setting('taleweaver.story_write_counted', true) = 'yes' then
    return null;
  end if;
  perform pg_catalog.set_config('taleweaver.story_write_counted', 'yes', true);
  insert into public.story_writes as counted (wallet_address, minute, writes)
  select writer, this_minute, 1
  where public.story_write_rate_limit() > 0
  on conflict (wallet_address, minute) do update
    set writes = counted.writes + 1
    where counted.writes < public.story_write_rate_limit();
  if not found then
    wait_seconds := greatest(
      1,
      pg_catalog.ceil(
        extract(epoch from this_minute + interval '1 minute' - pg_catalog.now())
      )::integer
    );
    raise sqlstate 'PGRST' using
      message = public.story_limits_error(
        'rate_limited',
        pg_catalog.format('Too many story saves; retry in %s seconds', wait_seconds),
        429
      ),
      detail = pg_catalog.json_build_object(
        'status', 429,
        'headers', pg_catalog.json_build_object('Retry-After', wait_seconds::text)
      )::text;
  end if;
  delete from public.story_writes as past where past.minute < this_minute;
  return null;
end
$$;

revoke all on function public.count_story_write() from public, anon, authenticated;

create trigger stories_2_count_write
after insert or update or delete on public.stories
for each statement execute function public.count_story_write();

create trigger story_parts_2_count_write
after insert or update or delete on public.story_parts
for each statement execute function public.count_story_write();

-- What anyone may read of a published story, and nothing more.
create table public.published_stories (
  id uuid primary key references public.stories (id) on delete cascade,
  language text not null,
  genre text not null,
  portrait integer not null,
  character_name text not null,
  -- The wallet's short form, 0x1234…abcd.
  author text not null,
  -- The paragraphs and the choices, in order: {kind, text, outcome} (outcome for a choice).
  entries jsonb not null,
  -- The recap's paragraphs as the model wrote them, and the score the game computed.
  recap jsonb,
  score integer,
  ending_type text not null,
  turn_count integer not null,
  published_at timestamptz not null
);

comment on table public.published_stories is
  'The public fields of each published story, kept by the trigger stories_3_publish; anyone '
  'reads it (the page /story/<id>).';

alter table public.published_stories enable row level security;

create policy "anyone reads published stories" on public.published_stories
for select to anon, authenticated
using (true);

-- Keeps published_stories equal to the published rows of stories, at the end of the
-- transaction that changed them (once the save's parts are in: save_story writes the record
-- with every save, so a change of its parts always comes with one). Runs as its owner: the copy is
-- written here only, never by a player.
create function public.publish_story_copy() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  target constant uuid := coalesce(new.id, old.id);
begin
  delete from public.published_stories as page where page.id = target;
  insert into public.published_stories (
    id, language, genre, portrait, character_name, author, entries, recap, score, ending_type,
    turn_count, published_at
  )
  select
    story.id,
    story.language,
    coalesce(story.head -> 'game' ->> 'chosenGenre', story.head ->> 'chosenGenre', ''),
    coalesce((story.head -> 'game' ->> 'chosenImage')::numeric::integer, 1),
    coalesce(story.head -> 'game' ->> 'chosenCharacter', story.head ->> 'chosenCharacter', ''),
    pg_catalog.left(story.wallet_address, 6) || '…' || pg_catalog.right(story.wallet_address, 4),
    coalesce(
      (
        select pg_catalog.jsonb_agg(
          pg_catalog.jsonb_build_object(
            'kind', part.value ->> 'kind',
            'text', part.value ->> 'text',
            'outcome', part.value -> 'outcome'
          )
          order by part.index
        )
        from public.story_parts as part
        where part.story_id = story.id and part.list = 'storyLog'
          and part.value ->> 'kind' in ('paragraph', 'choice')
      ),
      '[]'::jsonb
    ),
    case when pg_catalog.jsonb_typeof(story.head -> 'game' -> 'recap') = 'object' then
      pg_catalog.jsonb_build_object(
        'wrapUpParagraph', story.head -> 'game' -> 'recap' ->> 'wrapUpParagraph',
        'bigMoment', story.head -> 'game' -> 'recap' ->> 'bigMoment',
        'frequentActivity', story.head -> 'game' -> 'recap' ->> 'frequentActivity',
        'characterTraitHighlight', story.head -> 'game' -> 'recap' ->> 'characterTraitHighlight',
        'themeExploration', story.head -> 'game' -> 'recap' ->> 'themeExploration'
      )
    end,
    case when pg_catalog.jsonb_typeof(story.head -> 'game' -> 'finalScore') = 'number' then
      (story.head -> 'game' ->> 'finalScore')::numeric::integer
    end,
    coalesce(story.head ->> 'endingType', ''),
    coalesce((story.head -> 'game' ->> 'turnCount')::numeric::integer, 0),
    story.published_at
  from public.stories as story
  where story.id = target and story.published_at is not null;
  return null;
end
$$;

revoke all on function public.publish_story_copy() from public, anon, authenticated;

create constraint trigger stories_3_publish
after insert or update or delete on public.stories
deferrable initially deferred
for each row execute function public.publish_story_copy();

-- A save from the player's browser, in one transaction: the record (head) at the next revision,
-- the list entries that changed since the revision it was made on (p_parts: [{list, index,
-- value}]), and each list cut to its length (p_lengths: {list: length}). It is refused, nothing
-- written, when the story has moved on since p_base_revision (another device saved it), or has
-- gone while this save was made on a revision of it: `saved` is false and `revision` is the
-- stored one (0 for none), and the browser sends its line whole, as a copy or anew. A new story
-- is saved on revision 0. Runs with the player's rights: row-level security decides.
create function public.save_story(
  p_id uuid,
  p_base_revision integer,
  p_saved_at timestamptz,
  p_language text,
  p_head jsonb,
  p_lengths jsonb,
  p_parts jsonb,
  p_copy_of uuid default null
)
returns table (saved boolean, revision integer)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_column
declare
  owner constant text := (select auth.jwt()) ->> 'wallet_address';
  stored integer;
begin
  if owner is null then
    raise exception using errcode = 'insufficient_privilege', message = 'Sign in to keep stories';
  end if;
  if pg_catalog.jsonb_typeof(p_parts) <> 'array' or pg_catalog.jsonb_typeof(p_lengths) <> 'object' then
    raise exception using
      errcode = 'invalid_parameter_value',
      message = 'p_parts must be an array and p_lengths an object';
  end if;
  select story.revision into stored from public.stories as story where story.id = p_id for update;
  if coalesce(stored, 0) <> p_base_revision then
    return query select false, coalesce(stored, 0);
    return;
  end if;
  insert into public.stories as story (
    id, wallet_address, revision, saved_at, language, head, copy_of
  )
  values (p_id, owner, p_base_revision + 1, p_saved_at, p_language, p_head, p_copy_of)
  on conflict (id) do update
    set revision = excluded.revision,
      saved_at = excluded.saved_at,
      language = excluded.language,
      head = excluded.head,
      updated_at = pg_catalog.now();
  insert into public.story_parts as part (story_id, list, index, value)
  select p_id, entry ->> 'list', (entry ->> 'index')::integer, entry -> 'value'
  from pg_catalog.jsonb_array_elements(p_parts) as entry
  on conflict (story_id, list, index) do update set value = excluded.value;
  delete from public.story_parts as part
  where part.story_id = p_id
    and part.index >= coalesce((p_lengths ->> part.list)::integer, 0);
  return query select true, p_base_revision + 1;
end
$$;

-- Publishes or takes down one of the player's own finished stories, with the player's rights.
-- The page follows at once (stories_3_publish). No story of theirs by that id: 404.
create function public.publish_story(p_id uuid, p_published boolean)
returns table (published_at timestamptz)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  update public.stories as story
  set published_at = case when p_published then coalesce(story.published_at, pg_catalog.now()) end
  where story.id = p_id
  returning story.published_at;
  if not found then
    raise sqlstate 'PGRST' using
      message = public.story_limits_error('story_not_found', 'No story of yours has this id', 404),
      detail = '{"status": 404, "headers": {}}';
  end if;
end
$$;

-- A leaderboard result may name the story it came from; the leaderboard shows the link while
-- that story is published.
alter table public.game_results add column story_id uuid;
alter table public.leaderboard_entries add column story_id uuid;
create index leaderboard_entries_story_id_idx on public.leaderboard_entries (story_id);

create or replace function public.publish_result_to_leaderboard() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.leaderboard_entries as entry (
    game_result_id, wallet_address, score, ending_type, character_name, created_at, genre,
    turn_count, rewrites, story_id
  )
  values (
    new.id, new.wallet_address, new.score, new.ending_type, new.character_name, new.created_at,
    new.genre, new.turn_count,
    -- The table check game_results_detailed_stats_rewrites_range makes this cast safe.
    coalesce((new.detailed_stats -> 'rewrites')::numeric, 0)::integer,
    new.story_id
  )
  on conflict (game_result_id) do update
    set wallet_address = excluded.wallet_address,
      score = excluded.score,
      ending_type = excluded.ending_type,
      character_name = excluded.character_name,
      created_at = excluded.created_at,
      genre = excluded.genre,
      turn_count = excluded.turn_count,
      rewrites = excluded.rewrites,
      story_id = excluded.story_id;
  return null;
end
$$;

-- The same columns as before, and last the published story's id, null while it is not.
create or replace view public.leaderboard with (security_invoker = true) as
select
  entry.wallet_address, entry.score, entry.ending_type, entry.character_name, entry.created_at,
  entry.genre, entry.turn_count, entry.rewrites, page.id as published_story_id
from public.leaderboard_entries as entry
left join public.published_stories as page on page.id = entry.story_id;

-- Privileges: the platform's defaults taken away, then what the app needs.
revoke all on table public.stories, public.story_parts, public.published_stories
  from public, anon, authenticated;
revoke all on function
  public.save_story(uuid, integer, timestamptz, text, jsonb, jsonb, jsonb, uuid),
  public.publish_story(uuid, boolean),
  public.check_story_bounds(),
  public.serialize_wallet_stories(),
  public.story_limits_error(text, text, integer),
  public.story_write_rate_limit()
  from public, anon, authenticated;
grant select, insert, update, delete on table public.stories, public.story_parts to authenticated;
grant select on table public.published_stories to anon, authenticated;
grant execute on function
  public.save_story(uuid, integer, timestamptz, text, jsonb, jsonb, jsonb, uuid),
  public.publish_story(uuid, boolean),
  public.story_limits_error(text, text, integer),
  public.story_write_rate_limit()
  to authenticated;
grant insert (story_id) on public.game_results to authenticated;
grant all on table public.stories, public.story_parts, public.published_stories to service_role;
