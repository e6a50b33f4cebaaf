-- An Idempotency-Key belongs to one principal in one org and to the request it was first sent
-- with: another caller reusing the key never sees the record, and the same caller reusing it for
-- another request (method, route or body) is refused. Records are only kept for minutes, so the
-- old ones (scoped to the org alone) are dropped rather than carried over.
drop table idempotency_records;

create table idempotency_records (
  org_id               uuid not null references orgs (id),
  principal_id         uuid not null references principals (id) on delete cascade,
  key                  text not null,
  -- method, route and a hash of the body of the request that made the change
  request_fingerprint  text not null,
  -- the change's result as the protocol encodes it; empty for changes without one
  result               text not null,
  created_at           timestamptz not null default now(),
  expires_at           timestamptz not null,
  primary key (org_id, principal_id, key)
);
create index idempotency_records_expiry on idempotency_records (expires_at);
