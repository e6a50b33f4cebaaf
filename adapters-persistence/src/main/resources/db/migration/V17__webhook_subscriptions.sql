-- Webhook subscriptions: an org's change feed pushed to a URL, as signed CloudEvents.
--
-- The secret that signs deliveries is sealed like bucket credentials (AES-GCM under the server's
-- key, bound to the subscription's id); the database never holds it in plain text.
--
-- position_*: the feed position (transaction, sequence) of the last event acknowledged or
-- skipped. A new subscription starts where the feed stands at its creation: below the oldest
-- transaction still running every transaction has ended, so nothing committed later can appear
-- before (xmin, 0), and everything already committed lies below it.
--
-- leased_*: which server delivers the subscription now; another takes over once the lease has
-- expired (the server crashed or froze). Times of the lease are PostgreSQL's own clock, so that
-- servers with different clocks agree.
create table webhook_subscriptions (
  id                    uuid primary key,
  org_id                uuid not null references orgs (id) on delete cascade,
  owner_id              uuid not null references principals (id) on delete cascade,
  url                   text not null,
  filter_namespace      text,
  filter_table          text,
  filter_actions        text[] not null default '{}',
  sealed_secret         text not null,
  created_at            timestamptz not null,
  position_txid         bigint not null
                          default (pg_snapshot_xmin(pg_current_snapshot())::text::bigint),
  position_sequence     bigint not null default 0,
  position_recorded_at  timestamptz not null default now(),
  consecutive_failures  integer not null default 0,
  next_attempt_at       timestamptz,
  paused_at             timestamptz,
  paused_reason         text,
  last_delivered_at     timestamptz,
  leased_by             uuid,
  leased_until          timestamptz,
  check (filter_table is null or filter_namespace is not null)
);

create index webhook_subscriptions_org on webhook_subscriptions (org_id, created_at);

-- The delivery log: the most recent attempts of each subscription (the store keeps a bounded
-- number per subscription and deletes older ones as it writes new ones).
create table webhook_deliveries (
  id               bigint generated always as identity primary key,
  subscription_id  uuid not null references webhook_subscriptions (id) on delete cascade,
  event_id         uuid not null,
  attempted_at     timestamptz not null,
  attempt          integer not null,
  status_code      integer,
  latency_ms       bigint not null,
  error            text,
  delivered        boolean not null
);

create index webhook_deliveries_subscription on webhook_deliveries (subscription_id, id);
