-- The pictures of a story kept with the wallet (issue 41): with cloud saves on, each picture the
-- browser keeps of a story (MyStoriesDB's 'pictures', keyed by the story and its turn) goes to
-- the wallet's cloud with the story, as one more part of it. Only the story's wallet reads,
-- writes or deletes them; anyone reads the pictures of a published story (its page shows them,
-- and its opening picture is the page's Open Graph image). Deleting a story deletes them.
--
-- The bytes are kept as base64 text, the form supabase-js and PostgREST carry in JSON both ways
-- as it is (bytea goes through PostgREST as hex text, twice the size, and through node-postgres
-- as a Buffer the local server would have to convert), and the form a story export keeps them
-- in (picturesFile.ts). The database decodes it to check it: what is not base64 is refused, and
-- the bounds count the decoded bytes.
--
-- The database holds the bounds: at most 256 KB a picture, at most 40 pictures a story (the
-- opening, the ending and 38 moments, as the browser keeps them: storyPicture.ts), and at most
-- 20 MB of pictures a wallet (about 130 pictures at the 150 KB they usually weigh). Writes count
-- towards the wallet's writes a minute, as a story's saves do.

create table public.story_pictures (
  story_id uuid not null references public.stories (id) on delete cascade,
  -- 0 the opening, -1 the ending, 1 on the moment of that turn (storyPicture.ts).
  turn integer not null constraint story_pictures_turn_range check (turn between -1 and 99999),
  moment text not null constraint story_pictures_moment check (
    (moment = 'opening' and turn = 0)
    or (moment = 'ending' and turn = -1)
    or (moment = 'moment' and turn >= 1)
  ),
  media_type text not null constraint story_pictures_media_type check (
    media_type in ('image/webp', 'image/jpeg')
  ),
  -- The compressed image, base64 (padded, no line breaks); decoded, its first bytes must be the
  -- image its media type names (RIFF....WEBP, or FF D8 FF).
  data text not null constraint story_pictures_data_is_its_type check (
    case media_type
      when 'image/webp' then
        pg_catalog.substr(pg_catalog.decode(data, 'base64'), 1, 4) = '\x52494646'::bytea
        and pg_catalog.substr(pg_catalog.decode(data, 'base64'), 9, 4) = '\x57454250'::bytea
      else pg_catalog.substr(pg_catalog.decode(data, 'base64'), 1, 3) = '\xffd8ff'::bytea
    end
  ),
  bytes integer generated always as (pg_catalog.octet_length(pg_catalog.decode(data, 'base64'))) stored,
  width integer not null constraint story_pictures_width_range check (width between 1 and 1536),
  height integer not null constraint story_pictures_height_range check (height between 1 and 1536),
  -- The scene's words, the picture's alt text.
  alt text not null constraint story_pictures_alt_length check (pg_catalog.char_length(alt) <= 1000),
  -- The image model that drew it.
  model text not null constraint story_pictures_model_length check (pg_catalog.char_length(model) <= 200),
  -- When the browser kept it: a picture drawn again for its turn is a new one.
  created_at timestamptz not null,
  primary key (story_id, turn)
);

comment on table public.story_pictures is
  'The pictures of a cloud story, one a turn, base64: its wallet''s alone, and anyone''s while '
  'the story is published. Written through save_story_picture.';

alter table public.story_pictures enable row level security;

-- One policy a role and command: a player reads their own stories' pictures and the published
-- ones; a visitor, who may not read stories at all, the published ones only.
create policy "players see their own and published pictures" on public.story_pictures
for select to authenticated
using (
  exists (
    select 1 from public.stories as story
    where story.id = story_id and story.wallet_address = (select auth.jwt()) ->> 'wallet_address'
  )
  or exists (select 1 from public.published_stories as page where page.id = story_id)
);

create policy "visitors see published pictures" on public.story_pictures
for select to anon
using (exists (select 1 from public.published_stories as page where page.id = story_id));

create policy "players add pictures to their own stories" on public.story_pictures
for insert to authenticated
with check (
  exists (
    select 1 from public.stories as story
    where story.id = story_id and story.wallet_address = (select auth.jwt()) ->> 'wallet_address'
  )
);

create policy "players change their own stories' pictures" on public.story_pictures
for update to authenticated
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

create policy "players delete their own stories' pictures" on public.story_pictures
for delete to authenticated
using (
  exists (
    select 1 from public.stories as story
    where story.id = story_id and story.wallet_address = (select auth.jwt()) ->> 'wallet_address'
  )
);

-- The bounds, checked with the writer's rights (who sees exactly their own stories' pictures),
-- once the picture is written. A wallet's pictures are written one at a time (the advisory lock,
-- the stories' own): two at once never both count 39, nor both fit the last megabyte.
create function public.check_picture_bounds() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  owner text;
  in_story bigint;
  in_wallet bigint;
begin
  if new.bytes > 262144 then
    raise sqlstate 'PGRST' using
      message = public.story_limits_error(
        'picture_too_large', 'A picture kept with a wallet may weigh at most 256 KB', 413
      ),
      detail = '{"status": 413, "headers": {}}';
  end if;
  select story.wallet_address into owner from public.stories as story where story.id = new.story_id;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('stories:' || owner));
  select pg_catalog.count(*) into in_story
  from public.story_pictures as picture where picture.story_id = new.story_id;
  if in_story > 40 then
    raise sqlstate 'PGRST' using
      message = public.story_limits_error(
        'story_pictures_limit', 'A story kept with a wallet may have at most 40 pictures', 403
      ),
      detail = '{"status": 403, "headers": {}}';
  end if;
  select coalesce(sum(picture.bytes), 0) into in_wallet
  from public.story_pictures as picture
  join public.stories as story on story.id = picture.story_id
  where story.wallet_address = owner;
  if in_wallet > 20971520 then
    raise sqlstate 'PGRST' using
      message = public.story_limits_error(
        'wallet_pictures_full', 'A wallet may keep at most 20 MB of pictures', 413
      ),
      detail = '{"status": 413, "headers": {}}';
  end if;
  return null;
end
$$;

-- On any update, not only of the bytes: a row moved to another of the owner's stories (its
-- story_id changed through the REST API) must meet that story's count too.
create trigger story_pictures_1_bounds
after insert or update on public.story_pictures
for each row execute function public.check_picture_bounds();

create trigger story_pictures_2_count_write
after insert or update or delete on public.story_pictures
for each statement execute function public.count_story_write();

-- Keeps one picture of one of the player's stories, replacing the one its turn had: with the
-- player's rights, so row-level security decides (no story of theirs by that id: refused).
create function public.save_story_picture(
  p_story_id uuid,
  p_turn integer,
  p_moment text,
  p_media_type text,
  p_data text,
  p_width integer,
  p_height integer,
  p_alt text,
  p_model text,
  p_created_at timestamptz
)
returns table (turn integer, bytes integer)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_column
begin
  if (select auth.jwt()) ->> 'wallet_address' is null then
    raise exception using errcode = 'insufficient_privilege', message = 'Sign in to keep pictures';
  end if;
  return query
  insert into public.story_pictures as picture (
    story_id, turn, moment, media_type, data, width, height, alt, model, created_at
  )
  values (
    p_story_id, p_turn, p_moment, p_media_type, p_data, p_width, p_height, p_alt, p_model,
    p_created_at
  )
  on conflict (story_id, turn) do update
    set moment = excluded.moment,
      media_type = excluded.media_type,
      data = excluded.data,
      width = excluded.width,
      height = excluded.height,
      alt = excluded.alt,
      model = excluded.model,
      created_at = excluded.created_at
  returning picture.turn, picture.bytes;
end
$$;

revoke all on table public.story_pictures from public, anon, authenticated;
revoke all on function
  public.check_picture_bounds(),
  public.save_story_picture(uuid, integer, text, text, text, integer, integer, text, text, timestamptz)
  from public, anon, authenticated;
grant select on table public.story_pictures to anon, authenticated;
grant insert, update, delete on table public.story_pictures to authenticated;
grant execute on function
  public.save_story_picture(uuid, integer, text, text, text, integer, integer, text, text, timestamptz)
  to authenticated;
grant all on table public.story_pictures to service_role;
