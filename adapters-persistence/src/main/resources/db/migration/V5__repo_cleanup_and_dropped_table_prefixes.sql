-- Repos join the cleanup pass with the same recorded, resumable progress as namespaces (V2).
alter table repos
  -- Keep the bytes under the prefix when the repo is purged; only the catalog entry goes.
  add column retain_data boolean not null default false,
  -- When the name was given up: at an immediate delete, or when the cleanup started. From then on
  -- the repo cannot be restored and its name may belong to something else.
  add column name_released_at timestamptz,
  add column cleanup_attempts integer not null default 0,
  add column cleanup_objects_deleted bigint not null default 0,
  add column cleanup_last_error text,
  add column cleanup_updated_at timestamptz;
create index repos_due_for_cleanup on repos (purge_after) where deleted_at is not null;

-- A table with a prefix of its own (the floe.bucket property) keeps its claim when dropped, since
-- its files stay; this records the namespace it was dropped from, whose cleanup empties and
-- releases the prefix. No foreign key: that cleanup releases these claims before it removes the
-- namespace's row, so the column is only read while the row exists.
alter table prefix_claims add column dropped_from_namespace_id uuid;
create index prefix_claims_dropped_from on prefix_claims (dropped_from_namespace_id)
  where dropped_from_namespace_id is not null;
