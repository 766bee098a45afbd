-- Sign-in limits that hold on the hosted project (issue 29). Edge Function isolates and PostgREST
-- keep nothing between requests, so the limit is counted here, in PostgreSQL, where the Node
-- server counts it too (it has no limiter of its own): nonce requests and logins together, per
-- client address, per minute. The nonce request (create_user_if_not_exists) counts itself; the
-- wallet-login function counts each login through admit_sign_in before it reads the message.
-- And what a flood leaves behind is removed: players who never signed in, once their nonces
-- have gone, and the counts of past minutes.

-- Attempts per client address per minute. Past minutes are deleted as new ones are counted, so
-- the table holds at most the addresses seen in the last two minutes.
create table public.sign_in_attempts (
  client_address text not null,
  minute timestamptz not null,
  attempts integer not null,
  primary key (client_address, minute)
);

create index sign_in_attempts_minute_idx on public.sign_in_attempts (minute);

alter table public.sign_in_attempts enable row level security;
revoke all on table public.sign_in_attempts from public, anon, authenticated;
grant all on table public.sign_in_attempts to service_role;

-- A player is claimed once a sign-in has spent one of their nonces; an unclaimed row older
-- than the longest nonce life, with no nonce left, is removed. Rows from before this migration
-- are kept as claimed.
alter table public.users add column signed_in_at timestamptz;
update public.users set signed_in_at = created_at;
create index users_unclaimed_idx on public.users (created_at) where signed_in_at is null;

-- The client's address, from the request headers the gateway hands PostgREST (the
-- request.headers setting) or the wallet-login function hands admit_sign_in. Supabase's
-- platform sits behind Cloudflare, which sets cf-connecting-ip to the address it saw, replacing
-- any value the client sent; x-forwarded-for is only appended to, so its first entries are the
-- client's own words and only its last is the hop before the gateway's. The local server acts
-- as the gateway: it drops cf-connecting-ip and sets x-forwarded-for to the one address it saw.
-- Requests with neither share one count, 'unknown'.
create function public.client_address_of(p_headers jsonb) returns text
language sql
immutable
set search_path = ''
as $$
  select coalesce(
    nullif(pg_catalog.btrim(p_headers ->> 'cf-connecting-ip'), ''),
    nullif(
      pg_catalog.btrim(
        (pg_catalog.regexp_split_to_array(p_headers ->> 'x-forwarded-for', ','))[
          pg_catalog.array_length(
            pg_catalog.regexp_split_to_array(p_headers ->> 'x-forwarded-for', ','),
            1
          )
        ]
      ),
      ''
    ),
    'unknown'
  )
$$;

-- Attempts allowed per client address per minute: 30, as the Node server's SIGN_IN_RATE_LIMIT
-- defaults to; that server passes its own value per transaction as taleweaver.sign_in_rate_limit.
create function public.sign_in_rate_limit() returns integer
language sql
stable
set search_path = ''
as $$
  select coalesce(
    nullif(pg_catalog.current_setting('taleweaver.sign_in_rate_limit', true), '')::integer,
    30
  )
$$;

-- Counts one sign-in attempt from the address these headers name. Allowed: the count grows and
-- the function returns. Over the limit: nothing is counted, and PostgREST answers 429 with a
-- Retry-After header (its 'PGRST' error: the message is the body, the detail the status and
-- headers); the wallet-login function passes that answer on as it is.
create function public.count_sign_in_attempt(p_headers jsonb) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  address constant text := pg_catalog.left(public.client_address_of(p_headers), 100);
  this_minute constant timestamptz := pg_catalog.date_trunc('minute', pg_catalog.now());
  wait_seconds integer;
begin
  -- A limit of 0 admits nobody: not even the minute's first attempt is counted in.
  insert into public.sign_in_attempts as counted (client_address, minute, attempts)
  select address, this_minute, 1
  where public.sign_in_rate_limit() > 0
  on conflict (client_address, minute) do update
    set attempts = counted.attempts + 1
    where counted.attempts < public.sign_in_rate_limit();
  if not found then
    wait_seconds := greatest(
      1,
      pg_catalog.ceil(
        extract(epoch from this_minute + interval '1 minute' - pg_catalog.now())
      )::integer
    );
    raise sqlstate 'PGRST' using
      message = pg_catalog.json_build_object(
        'code', 'rate_limited',
        'message', pg_catalog.format(
          'Too many sign-in requests; retry in %s seconds', wait_seconds
        ),
        'details', null,
        'hint', null
      )::text,
      detail = pg_catalog.json_build_object(
        'status', 429,
        'headers', pg_catalog.json_build_object('Retry-After', wait_seconds::text)
      )::text;
  end if;
  delete from public.sign_in_attempts as old where old.minute < this_minute;
end
$$;

-- A login, counted before its message is read: the wallet-login function calls it with the
-- project's secret key, handing over the headers of the request it answers. One row, admitted,
-- when the login may go on; the 429 above when it may not.
create function public.admit_sign_in(p_request_headers jsonb)
returns table (admitted boolean)
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.count_sign_in_attempt(p_request_headers);
  return query select true;
end
$$;

-- Sign-in, step 1, as before (20261123000000_outstanding_sign_in_nonces.sql), now counted, and
-- removing what earlier floods left: expired nonces, then up to 100 players who never signed in
-- and have no nonce left (each call adds at most one, so they cannot pile up).
create or replace function public.create_user_if_not_exists(p_wallet_address text)
returns table (wallet_address text, username text, twitter_followed boolean, nonce text)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  address constant text := public.normalized_wallet_address(p_wallet_address);
  issued text;
begin
  perform public.count_sign_in_attempt(
    coalesce(nullif(pg_catalog.current_setting('request.headers', true), ''), '{}')::jsonb
  );
  delete from public.sign_in_nonces as old
  where old.issued_at < pg_catalog.now() - interval '1 hour';
  delete from public.users as unclaimed
  where unclaimed.wallet_address in (
    select candidate.wallet_address
    from public.users as candidate
    where candidate.signed_in_at is null
      and candidate.created_at < pg_catalog.now() - interval '1 hour'
      and candidate.wallet_address <> address
      and not exists (
        select 1 from public.sign_in_nonces as pending
        where pending.wallet_address = candidate.wallet_address
      )
    order by candidate.created_at
    limit 100
  );
  insert into public.users (wallet_address) values (address)
  on conflict (wallet_address) do nothing;
  insert into public.sign_in_nonces (nonce, wallet_address)
  values (pg_catalog.replace(pg_catalog.gen_random_uuid()::text, '-', ''), address)
  returning sign_in_nonces.nonce into issued;
  return query
  select player.wallet_address, player.username, player.twitter_followed, issued
  from public.users as player
  where player.wallet_address = address;
end
$$;

-- Spending a nonce, as before (20261125000000_spend_sign_in_nonce.sql), now also claiming the
-- player.
create or replace function public.spend_sign_in_nonce(
  p_wallet_address text,
  p_nonce text,
  p_max_age_seconds integer
)
returns table (spent boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  address constant text := public.normalized_wallet_address(p_wallet_address);
  deleted integer;
begin
  if p_max_age_seconds is null or p_max_age_seconds not between 1 and 3600 then
    raise exception using
      errcode = 'invalid_parameter_value',
      message = 'p_max_age_seconds must be from 1 to 3600';
  end if;
  delete from public.sign_in_nonces as pending
  where pending.nonce = p_nonce
    and pending.wallet_address = address
    and pending.issued_at >= pg_catalog.now() - pg_catalog.make_interval(secs => p_max_age_seconds);
  get diagnostics deleted = row_count;
  if deleted = 1 then
    update public.users as player
    set signed_in_at = pg_catalog.now()
    where player.wallet_address = address;
  end if;
  return query select deleted = 1;
end
$$;

revoke all on function
  public.client_address_of(jsonb),
  public.sign_in_rate_limit(),
  public.count_sign_in_attempt(jsonb),
  public.admit_sign_in(jsonb)
  from public, anon, authenticated;
grant execute on function public.admit_sign_in(jsonb) to service_role;
