-- Icechunk repos of an org. Their names come from org_names (shared with namespaces) and their
-- storage prefixes from prefix_claims, both held by the repo's id; a soft-deleted repo keeps both
-- until purge_after, so that it can be restored until then.
create table repos (
  id           uuid primary key,
  org_id       uuid not null references orgs (id),
  name         text not null,
  name_key     text not null,
  bucket_id    uuid not null references bucket_configs (id),
  prefix       text not null,
  description  text,
  created_at   timestamptz not null default now(),
  deleted_at   timestamptz,
  purge_after  timestamptz,
  check ((deleted_at is null) = (purge_after is null))
);
-- Resolving a live repo by name is one index probe; at most one live repo per name.
create unique index repos_live_name on repos (org_id, name_key) where deleted_at is null;
create index repos_org_name on repos (org_id, name_key, deleted_at);
