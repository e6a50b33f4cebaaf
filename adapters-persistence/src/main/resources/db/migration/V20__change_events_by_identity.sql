-- Events belong to objects, not names: a namespace deleted and created again under its name is
-- another namespace, and a reader of the new one must not see the old one's history. Each audit
-- row of a namespace, table or view change records the namespace's id (and the table's or view's,
-- when it still exists once the change is made), resolved in the change's own transaction.
-- No foreign keys: rows outlive purged namespaces and dropped tables.
--
-- Rows written before this migration carry no ids. They are not guessed from names (a purged
-- namespace of the same name leaves nothing to tell them apart), so only org admins see them.
alter table audit_log
  add column namespace_id uuid,
  add column object_id uuid;
