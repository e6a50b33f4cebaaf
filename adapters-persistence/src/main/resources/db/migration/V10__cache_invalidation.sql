-- Every Floe server keeps what it reads on every request (tokens, memberships, grants, orgs,
-- buckets, namespaces) in memory. A change to those tables, made by any server or by hand, tells
-- every server at once: the statement's table name goes to the channel 'floe_cache' when its
-- transaction commits, and each server drops what it cached from that table.
create function floe_cache_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('floe_cache', tg_table_name);
  return null;
end
$$;

create trigger orgs_cache after insert or update or delete or truncate on orgs
  for each statement execute function floe_cache_changed();
create trigger bucket_configs_cache after insert or update or delete or truncate on bucket_configs
  for each statement execute function floe_cache_changed();
create trigger principals_cache after insert or update or delete or truncate on principals
  for each statement execute function floe_cache_changed();
create trigger memberships_cache after insert or update or delete or truncate on memberships
  for each statement execute function floe_cache_changed();
create trigger team_members_cache after insert or update or delete or truncate on team_members
  for each statement execute function floe_cache_changed();
create trigger grants_cache after insert or update or delete or truncate on grants
  for each statement execute function floe_cache_changed();
create trigger namespaces_cache after insert or update or delete or truncate on namespaces
  for each statement execute function floe_cache_changed();
-- Recording when a token was last used changes nothing a server caches.
create trigger api_tokens_cache
  after insert or delete or truncate or update of principal_id, secret_hash, expires_at, revoked_at
  on api_tokens for each statement execute function floe_cache_changed();
-- A table grant applies in its table's current namespace: a rename or a drop moves or ends it.
-- Commits, which only move metadata pointers, are not announced.
create trigger catalog_objects_cache
  after delete or truncate or update of namespace_id, name on catalog_objects
  for each statement execute function floe_cache_changed();
