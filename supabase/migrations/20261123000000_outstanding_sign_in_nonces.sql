-- Sign-in nonces, several outstanding per wallet (DESIGN.md "Sign-in"). Until now each wallet
-- had one nonce on its users row, and every nonce request replaced it: a stranger asking for
-- the owner's address every few seconds kept the owner's pending nonce from ever being spent.
-- Now every request adds its own nonce; each is single-use (the login function deletes it as it
-- spends it) and short-lived (the login function accepts it only within its sign-in window).
create table public.sign_in_nonces (
  nonce text primary key,
  wallet_address text not null references public.users (wallet_address) on delete cascade,
  issued_at timestamptz not null default now()
);

create index sign_in_nonces_issued_at on public.sign_in_nonces (issued_at);

-- Only the security-definer function below and the server's own connection touch nonces.
alter table public.sign_in_nonces enable row level security;
revoke all on table public.sign_in_nonces from public, anon, authenticated;
grant all on table public.sign_in_nonces to service_role;

-- Sign-in, step 1: creates the player if missing and issues a fresh random nonce (32 hex
-- characters from gen_random_uuid(), the server's strong random source) beside any the wallet
-- already has. Nonces older than an hour can never be spent (the sign-in window is 10 minutes,
-- server/walletLogin.ts), so each call clears them out; the server's per-IP rate limit on this
-- call bounds how fast one address can add more.
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
  delete from public.sign_in_nonces as old
  where old.issued_at < pg_catalog.now() - interval '1 hour';
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

alter table public.users drop column nonce, drop column nonce_issued_at;
