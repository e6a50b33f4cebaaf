-- The maintenance scheduler. It learns what tables need from the commits the change feed
-- reports (each org's feed read once, from a cursor kept here), plans a job for a table when the
-- policy that applies says so, and runs it on one replica at a time under a lease.

-- How far the scheduler has read each org's change feed (a feed position: transaction, sequence).
create table maintenance_feed_cursors (
  org_id        uuid primary key references orgs (id) on delete cascade,
  txid          bigint not null,
  seq           bigint not null,
  recorded_at   timestamptz not null
);

-- What the commits reported about a table, as counters the scheduler plans from. The totals are
-- the latest snapshot summary's; the other counts are estimates kept since the step last ran.
-- table_key is the table's name as the catalog compares it (lower case), so a client that spells
-- it differently still counts towards the same row.
create table maintenance_tables (
  org_id                        uuid not null references orgs (id) on delete cascade,
  table_key                     text not null,
  namespace                     text not null,
  name                          text not null,
  total_data_files              bigint,
  total_files_size              bigint,
  snapshots                     integer not null default 0,
  data_manifests                integer not null default 0,
  commits_since_orphan_removal  integer not null default 0,
  orphans_removed_at            timestamptz,
  -- Commits arrived since the table was last planned.
  dirty                         boolean not null default false,
  updated_at                    timestamptz not null,
  primary key (org_id, table_key)
);

create index maintenance_tables_dirty on maintenance_tables (updated_at) where dirty;

-- One job: the steps planned for a table and why, and how it went. A pending job runs once due;
-- a running one holds a lease its replica renews, and once the lease has expired (the replica
-- died) another replica takes it over. A failed attempt goes back to pending, due after a
-- back-off. At most one job per table is open (pending or running).
create table maintenance_jobs (
  id                bigint generated always as identity primary key,
  org_id            uuid not null references orgs (id) on delete cascade,
  table_key         text not null,
  namespace         text not null,
  name              text not null,
  steps             text not null,
  reason            text not null,
  state             text not null check (state in ('pending', 'running', 'succeeded', 'failed',
                                                  'skipped')),
  attempts          integer not null default 0,
  created_at        timestamptz not null,
  due_at            timestamptz not null,
  lease_owner       text,
  lease_expires_at  timestamptz,
  started_at        timestamptz,
  finished_at       timestamptz,
  outcome           text,
  last_error        text
);

create unique index maintenance_jobs_open on maintenance_jobs (org_id, table_key)
  where state in ('pending', 'running');
create index maintenance_jobs_due on maintenance_jobs (due_at) where state = 'pending';
create index maintenance_jobs_leased on maintenance_jobs (lease_expires_at)
  where state = 'running';
create index maintenance_jobs_table on maintenance_jobs (org_id, table_key, id);
