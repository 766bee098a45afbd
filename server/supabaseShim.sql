-- What a hosted Supabase project already has and plain PostgreSQL or PGlite lack, so that
-- supabase/migrations apply unchanged here too (DESIGN.md, "The pieces"). The local server applies
-- this before the migrations, every time it starts; it is never part of supabase/migrations.
-- Everything is created only when missing, so it is idempotent and never replaces Supabase's own.

-- The roles PostgREST switches to: anon (no token), authenticated (a valid token), service_role
-- (the server-side key, which bypasses row-level security as on Supabase). Roles belong to the
-- whole cluster, so another database on the same server may have created them already, perhaps
-- at this very moment: a concurrent creation counts as done.
do $$
declare
  role_name text;
begin
  foreach role_name in array array['anon', 'authenticated', 'service_role'] loop
    if not exists (select 1 from pg_catalog.pg_roles where rolname = role_name) then
      begin
        execute pg_catalog.format(
          'create role %I nologin noinherit%s',
          role_name,
          case when role_name = 'service_role' then ' bypassrls' else '' end
        );
      exception
        when duplicate_object or unique_violation then
          null;
      end;
    end if;
    -- A superuser may switch to any role; a plain owner must be a member, as Supabase's
    -- authenticator is.
    if not pg_catalog.pg_has_role(current_user, role_name, 'member') then
      execute pg_catalog.format('grant %I to %I', role_name, current_user);
    end if;
  end loop;
end
$$;

grant usage on schema public to anon, authenticated, service_role;

create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

-- auth.jwt(): the claims of the request's token, which the server sets per transaction the way
-- PostgREST does (request.jwt.claims); '{}' when there is none.
do $$
begin
  if pg_catalog.to_regprocedure('auth.jwt()') is null then
    create function auth.jwt() returns jsonb
    language sql
    stable
    as $jwt$
      select coalesce(nullif(pg_catalog.current_setting('request.jwt.claims', true), ''), '{}')::jsonb
    $jwt$;
  end if;
end
$$;
