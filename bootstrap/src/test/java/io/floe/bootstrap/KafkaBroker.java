package io.floe.bootstrap;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;

/**
 * Apache Kafka itself, from its jars: one node in KRaft mode that is both controller and broker,
 * in this JVM, on 127.0.0.1 and ports of its own, its log in a directory of the test. Its
 * listeners: {@code PLAINTEXT} ({@link #bootstrapServers()}), {@code SASL_PLAINTEXT} with the
 * PLAIN mechanism and one user ({@link #saslBootstrapServers()}), and the controller's. It can
 * be stopped and started again on the same ports and log, as a broker that goes down and comes
 * back; the ports are chosen (free ones) before the first start, so a client can be given them
 * before the broker runs.
 */
final class KafkaBroker implements AutoCloseable {
  static final String SASL_USER = "floe";
  static final String SASL_PASSWORD = "floe-kafka-password";

  private final Path logDir;
  private final int brokerPort;
  private final int saslPort;
  private final int controllerPort;
  private KafkaRaftServer server;

  private KafkaBroker(Path logDir) throws Exception {
    // A broker that gives up would end the JVM, and the test run with it: fail the test instead.
    Exit.setExitProcedure((status, message) -> {
      throw new IllegalStateException("the Kafka broker exited (" + status + "): " + message);
    });
    Exit.setHaltProcedure((status, message) -> {
      throw new IllegalStateException("the Kafka broker halted (" + status + "): " + message);
    });
    this.logDir = logDir;
    this.brokerPort = freePort();
    this.saslPort = freePort();
    this.controllerPort = freePort();
    Files.createDirectories(logDir);
    new Formatter()
        .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
        .setNodeId(1)
        .setClusterId(Uuid.randomUuid().toString())
        .setDirectories(List.of(logDir.toString()))
        .setMetadataLogDirectory(logDir.toString())
        .setControllerListenerName("CONTROLLER")
        .run();
  }

  /** A broker whose log is formatted in {@code directory}, not started yet. */
  static KafkaBroker formatted(Path directory) throws Exception {
    return new KafkaBroker(directory);
  }

  String bootstrapServers() {
    return "127.0.0.1:" + brokerPort;
  }

  String saslBootstrapServers() {
    return "127.0.0.1:" + saslPort;
  }

  /** Starts the broker; it takes records once this returns (it has joined its own quorum). */
  synchronized KafkaBroker start() {
    if (server == null) {
      server = new KafkaRaftServer(KafkaConfig.fromProps(config(), false), Time.SYSTEM);
      server.startup();
    }
    return this;
  }

  /** Stops the broker; its log stays for the next start. */
  synchronized void stop() {
    if (server != null) {
      server.shutdown();
      server.awaitShutdown();
      server = null;
    }
  }

  /** Creates {@code topic} with {@code partitions} partitions. */
  void createTopic(String topic, int partitions) throws Exception {
    try (Admin admin = Admin.create(Map.<String, Object>of(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
        bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    }
  }

  @Override
  public void close() {
    stop();
    Exit.resetExitProcedure();
    Exit.resetHaltProcedure();
  }

  private Properties config() {
    Properties props = new Properties();
    props.put("process.roles", "broker,controller");
    props.put("node.id", "1");
    props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    props.put("controller.listener.names", "CONTROLLER");
    props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",SASL://127.0.0.1:"
        + saslPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort
        + ",SASL://127.0.0.1:" + saslPort);
    props.put("listener.security.protocol.map",
        "PLAINTEXT:PLAINTEXT,SASL:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT");
    props.put("inter.broker.listener.name", "PLAINTEXT");
    props.put("sasl.enabled.mechanisms", "PLAIN");
    props.put("listener.name.sasl.plain.sasl.jaas.config",
        "org.apache.kafka.common.security.plain.PlainLoginModule required user_" + SASL_USER
            + "=\"" + SASL_PASSWORD + "\";");
    props.put("log.dirs", logDir.toString());
    props.put("metadata.log.dir", logDir.toString());
    props.put("offsets.topic.replication.factor", "1");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("share.coordinator.state.topic.replication.factor", "1");
    props.put("share.coordinator.state.topic.min.isr", "1");
    props.put("group.initial.rebalance.delay.ms", "0");
    props.put("auto.create.topics.enable", "false");
    props.put("num.network.threads", "2");
    props.put("num.io.threads", "2");
    return props;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    }
  }
}
