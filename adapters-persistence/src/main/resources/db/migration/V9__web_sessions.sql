-- The web app's signed-in browsers. The cookie holds a random secret; only its SHA-256 is kept,
-- like an API token's. A session signed in with an API token ends with that token (revoked or
-- expired), which the lookup reads through api_token_id.
create table web_sessions (
  id            uuid primary key,
  principal_id  uuid not null references principals (id) on delete cascade,
  secret_hash   text not null unique,
  api_token_id  uuid references api_tokens (id) on delete cascade,
  -- the synchronizer token every form of this session must carry
  csrf_token    text not null,
  created_at    timestamptz not null,
  expires_at    timestamptz not null,
  ended_at      timestamptz
);
create index web_sessions_expiry on web_sessions (expires_at);
