-- Spending a sign-in nonce (DESIGN.md "Sign-in"), as a function the wallet-login Edge Function
-- calls through the REST API with the project's secret key: the function holds no database
-- driver and no connection string. Granted to service_role only; a visitor or a signed-in player
-- can never spend (or probe) anyone's nonce.
--
-- The nonce must be one this wallet was given (it may hold several: each nonce request adds one)
-- and issued within the last p_max_age_seconds (the function's sign-in window); it is deleted as
-- it is checked, so of two logins with the same nonce exactly one gets `spent = true`.
create function public.spend_sign_in_nonce(
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
  deleted integer;
begin
  if p_max_age_seconds is null or p_max_age_seconds not between 1 and 3600 then
    raise exception using
      errcode = 'invalid_parameter_value',
      message = 'p_max_age_seconds must be from 1 to 3600';
  end if;
  delete from public.sign_in_nonces as pending
  where pending.nonce = p_nonce
    and pending.wallet_address = public.normalized_wallet_address(p_wallet_address)
    and pending.issued_at >= pg_catalog.now() - pg_catalog.make_interval(secs => p_max_age_seconds);
  get diagnostics deleted = row_count;
  return query select deleted = 1;
end
$$;

revoke all on function public.spend_sign_in_nonce(text, text, integer)
  from public, anon, authenticated;
grant execute on function public.spend_sign_in_nonce(text, text, integer) to service_role;
