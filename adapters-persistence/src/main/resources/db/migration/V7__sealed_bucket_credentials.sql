-- Bucket credentials (static keys, service-account keys, role ARNs) are kept encrypted: the server
-- seals them with AES-GCM under a key the database never sees, bound to the row's id, and stores
-- the sealed value with the id of the key that sealed it. Rows written in plain text by an older
-- version keep their JSON in 'credentials' until the server's next start seals them (in one
-- transaction) and empties that column; afterwards every row holds exactly one of the two.
alter table bucket_configs
  add column sealed_credentials text,
  alter column credentials drop not null,
  alter column credentials drop default;

alter table bucket_configs
  add constraint bucket_configs_credentials_sealed_or_legacy
    check (num_nonnulls(credentials, sealed_credentials) = 1);
