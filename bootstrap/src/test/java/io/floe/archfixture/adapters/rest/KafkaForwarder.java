package io.floe.archfixture.adapters.rest;

import org.apache.kafka.clients.producer.ProducerRecord;

/** Breaks the rule that only outbound messaging uses the Kafka client. */
public class KafkaForwarder {
  public ProducerRecord<byte[], byte[]> record(byte[] value) {
    return new ProducerRecord<>("orders", value);
  }
}
