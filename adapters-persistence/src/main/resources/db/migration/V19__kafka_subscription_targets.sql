-- A subscription's target is a webhook URL or a Kafka topic: exactly one of the two.
--
-- kafka_bootstrap_servers: host:port,... as the client is given them; kafka_tls: whether to
-- connect over TLS; kafka_username: the SASL/PLAIN user, if any, whose password is sealed like
-- the signing secret (AES-GCM under the server's key, bound to the subscription's id, with its
-- own label so that one sealed value cannot stand in for the other).
alter table webhook_subscriptions alter column url drop not null;
alter table webhook_subscriptions
  add column kafka_bootstrap_servers text,
  add column kafka_topic text,
  add column kafka_tls boolean not null default false,
  add column kafka_username text,
  add column sealed_kafka_password text,
  add constraint webhook_subscriptions_one_target
    check ((url is null) <> (kafka_topic is null)
      and (kafka_topic is null) = (kafka_bootstrap_servers is null)
      and (sealed_kafka_password is null or kafka_username is not null));
