-- The org model's lifecycle: two-phase creation of prefix owners, and the soft delete, restore and
-- cleanup of namespaces, each step recorded so that a crash anywhere leaves a state the next pass
-- finishes or undoes.

-- A prefix owner (namespace, and later repo) whose creation has reserved its name and claimed its
-- prefix but not yet written its marker and its row. A crash leaves the row here; the repair pass
-- then removes the marker, the claim and the name, so a failed create leaves nothing behind.
create table pending_creations (
  owner_id    uuid primary key,
  org_id      uuid not null references orgs (id),
  owner_kind  text not null check (owner_kind in ('NAMESPACE', 'REPO')),
  name_key    text not null,
  bucket_id   uuid not null references bucket_configs (id),
  prefix      text not null,
  started_at  timestamptz not null
);

-- Soft delete: deleted_at and purge_after (V1) say when; these say how far the cleanup got.
alter table namespaces
  -- Keep the bytes under the prefix when the namespace is purged; only the catalog entry goes.
  add column retain_data boolean not null default false,
  -- When the name was given up: at an immediate delete, or when the cleanup started. From then on
  -- the namespace cannot be restored and its name may belong to something else.
  add column name_released_at timestamptz,
  -- Progress of the cleanup pass, for operators and for resuming after a crash.
  add column cleanup_attempts integer not null default 0,
  add column cleanup_objects_deleted bigint not null default 0,
  add column cleanup_last_error text,
  add column cleanup_updated_at timestamptz;

-- The cleanup pass looks for soft-deleted namespaces whose recovery period has passed.
create index namespaces_due_for_cleanup on namespaces (purge_after) where deleted_at is not null;
-- Listings sort by these within an org.
create index namespaces_org_updated on namespaces (org_id, updated_at) where deleted_at is null;
create index namespaces_org_created on namespaces (org_id, created_at) where deleted_at is null;
-- Metadata filters use jsonb containment.
create index namespaces_metadata on namespaces using gin (metadata jsonb_path_ops);
-- Live tables inside a prefix being cleaned up are found by bucket and location.
create index catalog_objects_location on catalog_objects (bucket_id, location text_pattern_ops);
