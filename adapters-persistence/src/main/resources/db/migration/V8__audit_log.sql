-- Who changed what in an org, and when: one row per successful change, written in the change's
-- own transaction, so a change that failed or was refused leaves no row. Rows are never updated.
create table audit_log (
  -- Assigned in insertion order: the listing's order and its keyset page token.
  id              bigint generated always as identity primary key,
  org_id          uuid not null references orgs (id),
  recorded_at     timestamptz not null,
  -- The acting principal as it was then; no foreign key, so entries outlive removed principals.
  principal_id    uuid not null,
  principal_name  text not null,
  -- e.g. 'table.commit', 'grant.create'
  action          text not null,
  -- 'org', 'bucket', 'namespace', 'table', 'view', 'repo' or 'principal', and its name
  target_kind     text not null,
  target_name     text not null,
  -- A few facts about the change; never a secret or a token.
  details         jsonb not null,
  request_id      text not null
);
-- Newest first within an org, and the two filters that pick few rows out of many.
create index audit_log_org on audit_log (org_id, id);
create index audit_log_org_principal on audit_log (org_id, principal_id, id);
create index audit_log_org_target on audit_log (org_id, target_name, id);
