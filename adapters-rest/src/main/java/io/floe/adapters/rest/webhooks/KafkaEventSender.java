package io.floe.adapters.rest.webhooks;

import io.floe.application.model.SubscriptionTarget;
import io.floe.application.port.out.KafkaPublisher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Subscription deliveries to Kafka, with Apache Kafka's own producer: one idempotent producer per
 * cluster and user ({@code acks=all}, so a record counts as written once every in-sync replica
 * has it), kept between deliveries; each record is sent and waited for before the next, so a
 * subscription's records reach a partition in the order they were sent. The time to reach the
 * cluster ({@code max.block.ms}) and to be answered ({@code delivery.timeout.ms}) are bounded,
 * and a producer whose send failed is closed and replaced at the next attempt, so a failure
 * leaves no record queued behind the caller's back: a retry is the caller's decision.
 */
public final class KafkaEventSender implements KafkaPublisher, AutoCloseable {
  private static final AtomicInteger CLIENTS = new AtomicInteger();

  /** What a producer is made for (the password is kept in memory only, never shown). */
  private record Connection(String bootstrapServers, boolean tls, Optional<String> username,
      Optional<String> password) {
    @Override
    public String toString() {
      return bootstrapServers + (username.map(user -> " as " + user).orElse(""));
    }
  }

  private final Duration connectTimeout;
  private final Duration answerTimeout;
  private final Map<Connection, Producer<byte[], byte[]>> producers = new ConcurrentHashMap<>();

  /**
   * {@code connectTimeout} bounds how long a send waits to learn where the topic's partitions
   * are (the cluster unreachable), {@code answerTimeout} how long the cluster may take to
   * acknowledge a record once sent.
   */
  public KafkaEventSender(Duration connectTimeout, Duration answerTimeout) {
    this.connectTimeout = connectTimeout;
    this.answerTimeout = answerTimeout;
  }

  @Override
  public Optional<String> publish(SubscriptionTarget.Kafka target, Optional<String> password,
      String key, Map<String, String> headers, byte[] value) {
    Connection connection = new Connection(target.bootstrapServers(), target.tls(),
        target.username(), password);
    Producer<byte[], byte[]> producer;
    try {
      producer = producers.computeIfAbsent(connection, this::open);
    } catch (KafkaException | IllegalArgumentException e) {
      return Optional.of("could not set up a Kafka producer for " + connection + ": "
          + describe(e));
    }
    List<Header> recordHeaders = new ArrayList<>();
    headers.forEach((name, text) -> recordHeaders.add(new RecordHeader(name,
        text.getBytes(StandardCharsets.UTF_8))));
    ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(target.topic(), null,
        key.getBytes(StandardCharsets.UTF_8), value, recordHeaders);
    try {
      // The producer gives up by itself within these bounds; the wait here is a backstop.
      producer.send(record).get(connectTimeout.plus(answerTimeout).plusSeconds(5).toMillis(),
          TimeUnit.MILLISECONDS);
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      discard(connection, producer);
      return Optional.of("interrupted while delivering");
    } catch (ExecutionException e) {
      discard(connection, producer);
      return Optional.of("the Kafka cluster at " + connection + " did not take the record: "
          + describe(e.getCause() == null ? e : e.getCause()));
    } catch (TimeoutException e) {
      discard(connection, producer);
      return Optional.of("the Kafka cluster at " + connection + " did not answer in time");
    } catch (KafkaException e) {
      discard(connection, producer);
      return Optional.of("the Kafka cluster at " + connection + " did not take the record: "
          + describe(e));
    }
  }

  private Producer<byte[], byte[]> open(Connection connection) {
    Properties config = new Properties();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, connection.bootstrapServers());
    config.put(ProducerConfig.CLIENT_ID_CONFIG, "floe-subscriptions-" + CLIENTS.incrementAndGet());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    config.put(ProducerConfig.LINGER_MS_CONFIG, "0");
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(connectTimeout.toMillis()));
    config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(answerTimeout.toMillis()));
    config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(answerTimeout.toMillis()));
    config.put(ProducerConfig.ENABLE_METRICS_PUSH_CONFIG, "false");
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
        ByteArraySerializer.class.getName());
    boolean sasl = connection.username().isPresent();
    config.put("security.protocol", (sasl ? "SASL_" : "") + (connection.tls() ? "SSL"
        : "PLAINTEXT"));
    if (sasl) {
      config.put("sasl.mechanism", "PLAIN");
      config.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule "
          + "required username=\"" + quoted(connection.username().get()) + "\" password=\""
          + quoted(connection.password().orElse("")) + "\";");
    }
    return new KafkaProducer<>(config);
  }

  /** A value inside a JAAS configuration's double quotes. */
  private static String quoted(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  private void discard(Connection connection, Producer<byte[], byte[]> producer) {
    producers.remove(connection, producer);
    producer.close(Duration.ZERO);
  }

  private static String describe(Throwable e) {
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }

  /** Closes every producer, abandoning what is not sent yet (its position has not moved). */
  @Override
  public void close() {
    producers.values().forEach(producer -> producer.close(Duration.ZERO));
    producers.clear();
  }
}
