package io.floe.adapters.messaging.kafka;

import io.floe.application.model.SubscriptionTarget;
import io.floe.application.port.out.DeliveryChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * cluster, user and delivery thread ({@code acks=all}, so a record counts as written once every
 * in-sync replica has it), kept between deliveries. Per thread, because deliveries run on
 * several workers at once and a failed send closes its producer: a producer shared between two
 * workers would abort the other's record in flight, which the cluster may still write (a
 * duplicate once retried). Each record is sent and waited for before the next, so a
 * subscription's records reach a partition in the order they were sent. The time to reach the
 * cluster ({@code max.block.ms}) and to be answered ({@code delivery.timeout.ms}) are bounded,
 * and a producer whose send failed is closed and replaced at the next attempt, so a failure
 * leaves no record queued behind the caller's back: a retry is the caller's decision. The whole
 * attempt (learning where the partitions are, then the acknowledgement) is bounded by the
 * attempt timeout, through the producer's own bounds.
 *
 * <p>A record is the event's body under its key (the changed object, so one object's events
 * land in one partition, in order), with the signature headers under the names the CloudEvents
 * Kafka binding gives them (lower case: {@code content-type}).
 */
public final class KafkaTopicChannel implements DeliveryChannel<SubscriptionTarget.Kafka>,
    AutoCloseable {
  private static final AtomicInteger CLIENTS = new AtomicInteger();

  /**
   * What a producer is made for, and the thread that uses it (the password is kept in memory
   * only, never shown).
   */
  private record Connection(String bootstrapServers, boolean tls, Optional<String> username,
      Optional<String> password, long thread) {
    @Override
    public String toString() {
      return bootstrapServers + (username.map(user -> " as " + user).orElse(""));
    }
  }

  /** A wait beyond the producer's own bounds, in case it does not keep them. */
  private static final Duration BACKSTOP = Duration.ofSeconds(5);

  private final Duration connectTimeout;
  private final Duration answerTimeout;
  private final Map<Connection, Producer<byte[], byte[]>> producers = new ConcurrentHashMap<>();

  /**
   * The producer's own bounds share {@code attemptTimeout}: learning where the topic's partitions
   * are (the cluster unreachable) takes at most {@code connectTimeout} and never more than half
   * of it, the acknowledgement of the record the rest. The producer gives up within them by
   * itself, before the caller moves on, so that nothing it gave up on is written later.
   */
  public KafkaTopicChannel(Duration connectTimeout, Duration attemptTimeout) {
    Duration half = attemptTimeout.dividedBy(2);
    this.connectTimeout = connectTimeout.compareTo(half) < 0 ? connectTimeout : half;
    this.answerTimeout = attemptTimeout.minus(this.connectTimeout);
  }

  @Override
  public Outcome deliver(SubscriptionTarget.Kafka target, Optional<String> password,
      Message message) {
    Optional<String> failure = publish(target, password, message.key(), message.headers(),
        message.body());
    return failure.map(why -> Outcome.failed(Optional.empty(), why))
        .orElseGet(() -> Outcome.acknowledged(Optional.empty()));
  }

  private Optional<String> publish(SubscriptionTarget.Kafka target, Optional<String> password,
      String key, Map<String, String> headers, byte[] value) {
    Connection connection = new Connection(target.bootstrapServers(), target.tls(),
        target.username(), password, Thread.currentThread().getId());
    Producer<byte[], byte[]> producer;
    try {
      producer = producers.computeIfAbsent(connection, this::open);
    } catch (KafkaException | IllegalArgumentException e) {
      return Optional.of("could not set up a Kafka producer for " + connection + ": "
          + describe(e));
    }
    List<Header> recordHeaders = new ArrayList<>();
    headers.forEach((name, text) -> recordHeaders.add(new RecordHeader(
        name.toLowerCase(Locale.ROOT), text.getBytes(StandardCharsets.UTF_8))));
    ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(target.topic(), null,
        key.getBytes(StandardCharsets.UTF_8), value, recordHeaders);
    try {
      // The producer gives up by itself within its bounds; the wait here is a backstop.
      producer.send(record).get(answerTimeout.plus(BACKSTOP).toMillis(),
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
