-- Access control: teams of users, grants at namespace or table grain, and the identity a user
-- has at an external identity provider.

-- A team is a principal of kind TEAM; its members are users. A grant to the team reaches them.
create table team_members (
  team_id    uuid not null references principals (id) on delete cascade,
  member_id  uuid not null references principals (id) on delete cascade,
  primary key (team_id, member_id)
);
-- Decisions look up the teams of one principal.
create index team_members_member on team_members (member_id);

-- A grant on a namespace (table_id null) or on one table or view of it (table_id set). A table
-- grant follows its table: dropping the table drops the grant, and the table's current namespace
-- is read through catalog_objects, so a rename never carries a grant to another table.
create table grants (
  id            uuid primary key,
  org_id        uuid not null references orgs (id),
  principal_id  uuid not null references principals (id) on delete cascade,
  namespace_id  uuid not null references namespaces (id) on delete cascade,
  table_id      uuid references catalog_objects (id) on delete cascade,
  action        text not null check (action in ('READ', 'WRITE', 'MANAGE')),
  created_at    timestamptz not null default now()
);
-- One grant per principal and target: granting again changes the action.
create unique index grants_one_per_target on grants
  (principal_id, namespace_id, coalesce(table_id, '00000000-0000-0000-0000-000000000000'::uuid));
create index grants_namespace on grants (namespace_id);
create index grants_table on grants (table_id) where table_id is not null;
create index grants_org on grants (org_id, created_at);

-- The value of the configured claim (e.g. 'sub' or 'email') by which an identity provider's
-- tokens name this user.
alter table principals add column external_id text;
create unique index principals_external_id on principals (external_id) where external_id is not null;
-- The org whose admins manage this principal's tokens, teams and names: the one it was created
-- in. An admin of another org it joins cannot issue it tokens that would work in this org too.
-- (No foreign key: memberships already reference orgs, and a second path confuses generated code.)
alter table principals add column home_org_id uuid;
