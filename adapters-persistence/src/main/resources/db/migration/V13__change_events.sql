-- The change feed is the audit log: every committed change already writes one audit row in its
-- own transaction, so the feed adds columns to that row instead of a second insert.
--
-- event_id: the event's id, which subscribers de-duplicate on.
-- txid: the writing transaction's id (pg_current_xact_id, as a number). Identity values are
-- taken when a row is inserted, not when its transaction commits, so a reader paging by id alone
-- could pass over a row whose transaction commits after a later id became visible. The feed is
-- read in (txid, id) order and only below the oldest transaction still running
-- (pg_snapshot_xmin): no row can appear there afterwards, so a reader never skips one.
alter table audit_log
  add column event_id uuid not null default gen_random_uuid(),
  add column txid bigint not null default (pg_current_xact_id()::text::bigint);

create index audit_log_feed on audit_log (org_id, txid, id);
