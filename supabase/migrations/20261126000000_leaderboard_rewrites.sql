-- Rewrites on the leaderboard (issue 22): a player may have a turn written again, at most 3 times
-- per turn, and a rewrite never changes the outcome. A saved result carries the number its whole
-- game used as detailed_stats.rewrites; results saved before rewrites existed have no such key,
-- which counts as 0. The leaderboard shows the number beside the score.

-- A table check rather than a trigger: it holds for every row however it is written (updates and
-- the benchmark's trigger-less seeding included), adding it proves the rows already saved valid,
-- and the view below relies on it to read the number without a cast that could fail. The CASE
-- tests the type before the cast: SQL does not promise to evaluate an and's operands in order.
alter table public.game_results
  add constraint game_results_detailed_stats_rewrites_range check (
    case
      when detailed_stats -> 'rewrites' is null then true
      when pg_catalog.jsonb_typeof(detailed_stats -> 'rewrites') <> 'number' then false
      else (detailed_stats -> 'rewrites')::numeric between 0 and 3 * turn_count
        and (detailed_stats -> 'rewrites')::numeric
          = pg_catalog.trunc((detailed_stats -> 'rewrites')::numeric)
    end
  );

comment on constraint game_results_detailed_stats_rewrites_range on public.game_results is
  'detailed_stats.rewrites, when present, must be a whole number from 0 to 3 * turn_count '
  '(at most 3 rewrites per turn, issue 22).';

-- The leaderboard as before (see 20261122000000_game_backend.sql: deliberately not
-- security_invoker), with the rewrites after the existing columns. Replacing a view keeps its
-- owner and its grants (select for anon and authenticated, all for service_role).
create or replace view public.leaderboard with (security_invoker = false) as
select
  wallet_address,
  score,
  ending_type,
  character_name,
  created_at,
  genre,
  turn_count,
  coalesce((detailed_stats -> 'rewrites')::numeric, 0)::integer as rewrites
from public.game_results;
