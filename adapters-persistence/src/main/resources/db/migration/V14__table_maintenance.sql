-- Maintenance policies, set on an org, a namespace or a table: for each field the nearest level
-- that sets it wins. A null field is not set at that level, and a step no level turns on stays
-- off. A policy belongs to the object's id, so a renamed table keeps its policy.
create table maintenance_policies (
  target_id                          uuid primary key,
  org_id                             uuid not null references orgs (id) on delete cascade,
  scope                              text not null check (scope in ('ORG', 'NAMESPACE', 'TABLE')),
  snapshot_max_age_seconds           bigint check (snapshot_max_age_seconds >= 0),
  min_snapshots_to_keep              integer check (min_snapshots_to_keep >= 1),
  orphan_grace_seconds               bigint check (orphan_grace_seconds >= 0),
  manifest_rewrite_threshold         integer check (manifest_rewrite_threshold >= 1),
  compaction_target_file_size_bytes  bigint check (compaction_target_file_size_bytes > 0),
  compaction_min_input_files         integer check (compaction_min_input_files >= 2),
  updated_at                         timestamptz not null
);

create index maintenance_policies_org on maintenance_policies (org_id);
