-- Floe's catalog. PostgreSQL is the only store: the same SQL runs embedded, in tests and in
-- production. Every pointer move is a compare-and-swap in SQL; nothing is read-modified-written
-- in Java without a guard here.

create table orgs (
  id               uuid primary key,
  name             text not null unique,
  iceberg_enabled  boolean not null default false,
  created_at       timestamptz not null default now()
);

create table bucket_configs (
  id            uuid primary key,
  org_id        uuid not null references orgs (id),
  nickname      text not null,
  nickname_key  text not null,
  platform      text not null check (platform in ('s3', 's3-compatible', 'gcs', 'local', 'azure')),
  bucket        text not null,
  prefix        text not null default '',
  endpoint      text,
  region        text,
  path_style    boolean not null default false,
  credentials   jsonb not null default '{}'::jsonb,
  is_default    boolean not null default false,
  created_at    timestamptz not null default now(),
  unique (org_id, nickname_key)
);
-- At most one default bucket per org.
create unique index bucket_configs_one_default on bucket_configs (org_id) where is_default;

create table principals (
  id          uuid primary key,
  kind        text not null check (kind in ('USER', 'TEAM', 'API_CLIENT')),
  name        text not null,
  created_at  timestamptz not null default now()
);

create table memberships (
  org_id        uuid not null references orgs (id),
  principal_id  uuid not null references principals (id),
  role          text not null check (role in ('MEMBER', 'ADMIN')),
  primary key (org_id, principal_id)
);

create table api_tokens (
  id            uuid primary key,
  principal_id  uuid not null references principals (id),
  secret_hash   text not null unique,
  description   text,
  created_at    timestamptz not null default now(),
  expires_at    timestamptz,
  revoked_at    timestamptz,
  last_used_at  timestamptz
);

-- Namespaces and repos share one set of names per org, compared case-insensitively. A row here
-- holds a name for its owner, live or soft-deleted, until the owner is purged.
create table org_names (
  org_id      uuid not null references orgs (id),
  name_key    text not null,
  owner_kind  text not null check (owner_kind in ('NAMESPACE', 'REPO')),
  owner_id    uuid not null,
  primary key (org_id, name_key)
);

-- Storage prefixes owned by namespaces, tables and repos. Overlap (equal, parent, child) is checked
-- under a lock on the bucket row; the unique constraint backs the equal case.
create table prefix_claims (
  bucket_id   uuid not null references bucket_configs (id),
  prefix      text not null,
  owner_kind  text not null check (owner_kind in ('NAMESPACE', 'TABLE', 'REPO')),
  owner_id    uuid not null,
  created_at  timestamptz not null default now(),
  primary key (bucket_id, prefix)
);
create index prefix_claims_owner on prefix_claims (owner_id);

create table namespaces (
  id           uuid primary key,
  org_id       uuid not null references orgs (id),
  name         text not null,
  name_key     text not null,
  bucket_id    uuid not null references bucket_configs (id),
  prefix       text not null,
  properties   jsonb not null default '{}'::jsonb,
  description  text,
  metadata     jsonb not null default '{}'::jsonb,
  visibility   text not null default 'PRIVATE' check (visibility in ('PRIVATE', 'AUTHENTICATED_PUBLIC')),
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now(),
  deleted_at   timestamptz,
  purge_after  timestamptz
);
-- Resolving a live namespace by name is one index probe.
create unique index namespaces_live_name on namespaces (org_id, name_key) where deleted_at is null;
create index namespaces_org_name on namespaces (org_id, name);

-- Tables and views. The pointer to the current metadata file moves only by compare-and-swap.
create table catalog_objects (
  id                     uuid primary key,
  namespace_id           uuid not null references namespaces (id),
  name                   text not null,
  kind                   text not null check (kind in ('TABLE', 'VIEW')),
  metadata_location      text not null,
  bucket_id              uuid not null references bucket_configs (id),
  location               text not null,
  has_storage_override   boolean not null default false,
  created_at             timestamptz not null default now(),
  updated_at             timestamptz not null default now(),
  unique (namespace_id, name)
);
-- Keyset pagination of one namespace's tables or views by name.
create index catalog_objects_listing on catalog_objects (namespace_id, kind, name);

-- Responses to mutating requests that carried an Idempotency-Key, written in the same transaction
-- as the change itself, kept for a bounded time.
create table idempotency_records (
  org_id       uuid not null references orgs (id),
  key          text not null,
  operation    text not null,
  status       integer not null,
  body         text not null,
  created_at   timestamptz not null default now(),
  expires_at   timestamptz not null,
  primary key (org_id, key)
);
create index idempotency_records_expiry on idempotency_records (expires_at);
