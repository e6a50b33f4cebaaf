-- Every Floe server keeps tables' and views' rows, metadata pointers included, in memory. A
-- change to one row tells every server which object changed, and in which transaction, when that
-- transaction commits: 'C <transaction id> <object id>' on the channel 'floe_pointers'. A server
-- forgets only that object, and stops holding it back for that transaction's write (the
-- protocol is described in the cache package of adapters-persistence). A new row needs no
-- announcement: nothing can have kept an object that did not exist.
create function floe_pointer_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    perform pg_notify('floe_pointers', 'C ' || txid_current() || ' ' || old.id);
  else
    perform pg_notify('floe_pointers', 'C ' || txid_current() || ' ' || new.id);
  end if;
  return null;
end
$$;

create trigger catalog_objects_pointers after update or delete on catalog_objects
  for each row execute function floe_pointer_changed();

-- A truncate changes every row: every server forgets every object.
create function floe_pointers_truncated() returns trigger language plpgsql as $$
begin
  perform pg_notify('floe_pointers', 'C ' || txid_current() || ' *');
  return null;
end
$$;

create trigger catalog_objects_pointers_truncated after truncate on catalog_objects
  for each statement execute function floe_pointers_truncated();
