-- Taleweaver's backend: players, their saved results and the leaderboard (SPEC.md section 3,
-- "Backend records"), with the access rules (section 6) and the server-side rules a modified
-- client cannot skip (DESIGN.md, "Server-side rules"). Applies unchanged to hosted Supabase,
-- to PostgreSQL 15 and to PGlite (server/supabaseShim.sql supplies the roles and auth.jwt()).
-- Every function fixes search_path = '' and names what it uses by schema.

-- Players, one row per wallet (SPEC.md section 3). The nonce is the sign-in challenge of
-- DESIGN.md "Sign-in"; the server clears it when a signature uses it.
create table public.users (
  wallet_address text primary key
    constraint users_wallet_address_format check (wallet_address ~ '^0x[0-9a-f]{40}$'),
  username text
    constraint users_username_length check (
      char_length(username) <= 32 and pg_catalog.btrim(username) <> ''
    ),
  twitter_followed boolean not null default false,
  nonce text,
  nonce_issued_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create function public.touch_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := pg_catalog.now();
  return new;
end
$$;

create trigger users_touch_updated_at
before update on public.users
for each row execute function public.touch_updated_at();

-- Saved ending results (SPEC.md sections 3 and 4 "Saving"). Bounds: the highest score the
-- formula of section 9 can give is round(300 + 20 * 29/30 + 15) * 1.5 = 501; detailed_stats
-- is small in practice, and 16 KB keeps a modified client from storing megabytes.
create table public.game_results (
  id bigint generated always as identity primary key,
  wallet_address text not null references public.users (wallet_address) on delete cascade
    constraint game_results_wallet_address_format check (wallet_address ~ '^0x[0-9a-f]{40}$'),
  score integer not null constraint game_results_score_range check (score between 0 and 501),
  ending_type text not null constraint game_results_ending_type_length check (
    char_length(ending_type) between 1 and 80 and pg_catalog.btrim(ending_type) <> ''
  ),
  character_name text not null constraint game_results_character_name_length check (
    char_length(character_name) between 1 and 100 and pg_catalog.btrim(character_name) <> ''
  ),
  genre text not null constraint game_results_genre_length check (
    char_length(genre) between 1 and 200 and pg_catalog.btrim(genre) <> ''
  ),
  turn_count integer not null constraint game_results_turn_count_range check (
    turn_count between 1 and 500
  ),
  detailed_stats jsonb not null
    constraint game_results_detailed_stats_object check (
      pg_catalog.jsonb_typeof(detailed_stats) = 'object'
    )
    constraint game_results_detailed_stats_size check (
      octet_length(detailed_stats::text) <= 16384
    ),
  created_at timestamptz not null default now()
);

-- SPEC.md section 7: the leaderboard reads the top 20 by score; the duplicate check (the
-- client's and the trigger's below) filters by wallet, character and ending within 24 hours.
-- The second index also serves "this wallet's results" and the foreign key.
create index game_results_score_idx on public.game_results (score desc);
create index game_results_duplicate_check_idx
  on public.game_results (wallet_address, character_name, ending_type, created_at);

-- The leaderboard (SPEC.md section 3): anyone may read it, visitors included (section 6), while
-- game_results itself is readable only by its owner. So the view is deliberately not
-- security_invoker: it reads game_results with its owner's rights (the migration's owner, who
-- owns the table and is therefore not subject to its row-level security) and exposes only
-- these columns.
create view public.leaderboard with (security_invoker = false) as
select wallet_address, score, ending_type, character_name, created_at, genre, turn_count
from public.game_results;

-- The ending multiplier in tenths (SPEC.md section 9), mirrored from src/engine/score.ts:
-- English names in any case, the Korean names of its KOREAN_ENDING_TYPES, spacing ignored
-- (the character class is JavaScript's \s, which score.ts trims and collapses); others 1.0.
create function public.ending_multiplier_tenths(p_ending_type text) returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when pg_catalog.lower(name collate pg_catalog."C") = 'heroic victory'
      or name in ('영웅적 승리', '영웅적인 승리') then 15
    when pg_catalog.lower(name collate pg_catalog."C") = 'pyrrhic victory'
      or name in ('피로스의 승리', '상처뿐인 승리') then 13
    when pg_catalog.lower(name collate pg_catalog."C") = 'antihero triumph'
      or name in ('안티히어로의 승리', '반영웅의 승리') then 12
    when pg_catalog.lower(name collate pg_catalog."C") = 'tragic downfall'
      or name in ('비극적 몰락', '비극적인 몰락') then 8
    when pg_catalog.lower(name collate pg_catalog."C") = 'bittersweet resolution'
      or name in ('씁쓸한 결말', '달콤씁쓸한 결말', '씁쓸한 해결') then 10
    else 10
  end
  from (
    select pg_catalog.btrim(
      pg_catalog.regexp_replace(
        p_ending_type,
        '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+',
        ' ',
        'g'
      ),
      ' '
    ) as name
  ) as normalized
$$;

-- One number of detailed_stats, which must be a JSON number from 0 to 100 (SPEC.md section 3:
-- scoreBreakdown and playerStats values are 0..100).
create function public.detailed_stats_component(p_detailed_stats jsonb, p_path text[])
returns numeric
language plpgsql
immutable
set search_path = ''
as $$
declare
  component constant jsonb := p_detailed_stats #> p_path;
begin
  -- Nested rather than or-ed: SQL does not promise to test the type before the cast.
  if pg_catalog.jsonb_typeof(component) is not distinct from 'number' then
    if component::numeric between 0 and 100 then
      return component::numeric;
    end if;
  end if;
  raise exception using
    errcode = 'check_violation',
    message = pg_catalog.format(
      'detailed_stats.%s must be a number from 0 to 100, got %s',
      pg_catalog.array_to_string(p_path, '.'),
      coalesce(pg_catalog.left(component::text, 40), 'nothing')
    );
end
$$;

-- The ending score of SPEC.md section 9, as src/engine/score.ts computes it, from what a saved
-- result carries: base = decisions + consistency + creativity; bonus = 20 * max(0, 30 - turns)
-- / 30 + successRate * 15 / 100; score = round(round(base + bonus) * tenths / 10). Numeric
-- arithmetic, so halves round up exactly as Math.round does for these non-negative values.
create function public.ending_score(
  p_detailed_stats jsonb,
  p_turn_count integer,
  p_ending_type text
) returns integer
language plpgsql
immutable
set search_path = ''
as $$
declare
  stated_turns constant jsonb := p_detailed_stats -> 'turnCount';
  turns_match boolean := false;
  base numeric;
  bonus numeric;
begin
  if pg_catalog.jsonb_typeof(stated_turns) is not distinct from 'number' then
    turns_match := stated_turns::numeric = p_turn_count;
  end if;
  if not turns_match then
    raise exception using
      errcode = 'check_violation',
      message = pg_catalog.format(
        'detailed_stats.turnCount (%s) does not match turn_count (%s)',
        coalesce(pg_catalog.left(stated_turns::text, 40), 'nothing'),
        p_turn_count
      );
  end if;
  -- Morality is not part of the formula, but when present it is held to the same range.
  if p_detailed_stats #> '{scoreBreakdown,morality}' is not null then
    perform public.detailed_stats_component(p_detailed_stats, '{scoreBreakdown,morality}');
  end if;
  base := public.detailed_stats_component(p_detailed_stats, '{scoreBreakdown,decisions}')
    + public.detailed_stats_component(p_detailed_stats, '{scoreBreakdown,consistency}')
    + public.detailed_stats_component(p_detailed_stats, '{scoreBreakdown,creativity}');
  bonus := 20 * greatest(0, 30 - p_turn_count)::numeric / 30
    + public.detailed_stats_component(p_detailed_stats, '{playerStats,successRate}') * 15 / 100;
  return pg_catalog.round(
    pg_catalog.round(base + bonus) * public.ending_multiplier_tenths(p_ending_type) / 10
  );
end
$$;

-- Score plausibility (DESIGN.md, "Server-side rules"): the stored score must be the one the
-- result's own detailed_stats earn.
create function public.check_game_result_score() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  expected constant integer :=
    public.ending_score(new.detailed_stats, new.turn_count, new.ending_type);
begin
  if new.score is distinct from expected then
    raise exception using
      errcode = 'check_violation',
      message = pg_catalog.format(
        'score %s does not match the ending score %s computed from detailed_stats',
        new.score,
        expected
      );
  end if;
  return new;
end
$$;

-- The duplicate rule (SPEC.md section 5): the same wallet, character, ending type and score
-- saved within the last 24 hours is refused. The transaction-scoped advisory lock on exactly
-- that combination makes a second insert wait until the first commits or rolls back; at read
-- committed (PostgREST's level) its check then sees the committed row, so of two inserts at
-- the same instant exactly one succeeds. Security definer: the check sees every row whatever
-- the caller may read.
create function public.refuse_recent_duplicate_result() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended(
      new.wallet_address || '|' || new.character_name || '|' || new.ending_type || '|'
        || new.score,
      0
    )
  );
  if exists (
    select 1
    from public.game_results as saved
    where saved.wallet_address = new.wallet_address
      and saved.character_name = new.character_name
      and saved.ending_type = new.ending_type
      and saved.score = new.score
      and saved.created_at > pg_catalog.now() - interval '24 hours'
  ) then
    raise exception using
      errcode = 'unique_violation',
      message = 'This result has already been saved recently.';
  end if;
  return new;
end
$$;

-- Triggers fire in name order: plausibility first, then the duplicate rule.
create trigger game_results_1_check_score
before insert on public.game_results
for each row execute function public.check_game_result_score();

create trigger game_results_2_refuse_recent_duplicate
before insert on public.game_results
for each row execute function public.refuse_recent_duplicate_result();

-- The lowercase wallet address (SPEC.md section 3), or a clear error.
create function public.normalized_wallet_address(p_wallet_address text) returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  address constant text := pg_catalog.lower(p_wallet_address);
begin
  if address is null or address !~ '^0x[0-9a-f]{40}$' then
    raise exception using
      errcode = 'invalid_parameter_value',
      message = pg_catalog.format(
        'invalid wallet address: %s',
        coalesce(pg_catalog.quote_literal(pg_catalog.left(p_wallet_address, 100)), 'null')
      );
  end if;
  return address;
end
$$;

-- Sign-in, step 1 (SPEC.md section 7 "Backend", DESIGN.md "Sign-in"): creates the player if
-- missing and issues a fresh random nonce (32 hex characters from gen_random_uuid(), which
-- uses the server's strong random source), stored with its issue time for the login function.
create function public.create_user_if_not_exists(p_wallet_address text)
returns table (wallet_address text, username text, twitter_followed boolean, nonce text)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  insert into public.users as player (wallet_address, nonce, nonce_issued_at)
  values (
    public.normalized_wallet_address(p_wallet_address),
    pg_catalog.replace(pg_catalog.gen_random_uuid()::text, '-', ''),
    pg_catalog.now()
  )
  on conflict (wallet_address) do update
    set nonce = excluded.nonce, nonce_issued_at = excluded.nonce_issued_at
  returning player.wallet_address, player.username, player.twitter_followed, player.nonce;
end
$$;

-- After signing the app calls it again with p_nonce => null (SPEC.md section 7): this only
-- makes sure the row exists and never touches or reveals the nonce. A client cannot choose its
-- own nonce, so any other p_nonce is refused rather than silently ignored.
create function public.create_user_if_not_exists(p_wallet_address text, p_nonce text)
returns table (wallet_address text, username text, twitter_followed boolean, nonce text)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  address constant text := public.normalized_wallet_address(p_wallet_address);
begin
  if p_nonce is not null then
    raise exception using
      errcode = 'invalid_parameter_value',
      message = 'p_nonce must be null: the server issues nonces through '
        || 'create_user_if_not_exists(p_wallet_address)';
  end if;
  insert into public.users (wallet_address) values (address)
  on conflict (wallet_address) do nothing;
  return query
  select player.wallet_address, player.username, player.twitter_followed, null::text
  from public.users as player
  where player.wallet_address = address;
end
$$;

-- Access rules (SPEC.md section 6, DESIGN.md "Sign-in"): row-level security everywhere, and
-- policies that read only the token's wallet_address claim, never a request header.
alter table public.users enable row level security;
alter table public.game_results enable row level security;

create policy "players read their own row" on public.users
for select to authenticated
using (wallet_address = (select auth.jwt() ->> 'wallet_address'));

create policy "players update their own row" on public.users
for update to authenticated
using (wallet_address = (select auth.jwt() ->> 'wallet_address'))
with check (wallet_address = (select auth.jwt() ->> 'wallet_address'));

create policy "players read their own results" on public.game_results
for select to authenticated
using (wallet_address = (select auth.jwt() ->> 'wallet_address'));

create policy "players save their own results" on public.game_results
for insert to authenticated
with check (wallet_address = (select auth.jwt() ->> 'wallet_address'));

-- Privileges: take away whatever the platform grants by default (Supabase grants everything in
-- public to anon and authenticated), then give back only what the app needs.
revoke all on table public.users, public.game_results, public.leaderboard
  from public, anon, authenticated;
revoke all on sequence public.game_results_id_seq from public, anon, authenticated;
revoke all on function
  public.touch_updated_at(),
  public.ending_multiplier_tenths(text),
  public.detailed_stats_component(jsonb, text[]),
  public.ending_score(jsonb, integer, text),
  public.check_game_result_score(),
  public.refuse_recent_duplicate_result(),
  public.normalized_wallet_address(text),
  public.create_user_if_not_exists(text),
  public.create_user_if_not_exists(text, text)
  from public, anon, authenticated;

-- Visitors: the leaderboard and the nonce, nothing else.
grant select on public.leaderboard to anon, authenticated;
grant execute on function
  public.create_user_if_not_exists(text),
  public.create_user_if_not_exists(text, text)
  to anon, authenticated;

-- Signed-in players: their own results (insert without id or created_at, so the duplicate
-- window cannot be dodged), their own row without the nonce, and only the two columns the
-- profile changes (SPEC.md section 4, "Supporter badge").
grant select on public.game_results to authenticated;
grant insert (
  wallet_address, score, ending_type, character_name, genre, turn_count, detailed_stats
) on public.game_results to authenticated;
grant select (wallet_address, username, twitter_followed, created_at, updated_at)
  on public.users to authenticated;
grant update (username, twitter_followed) on public.users to authenticated;

-- The server-side key keeps the full access Supabase gives it by default, here as there.
grant all on table public.users, public.game_results, public.leaderboard to service_role;
grant all on sequence public.game_results_id_seq to service_role;
