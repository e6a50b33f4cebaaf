package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.status.Status;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** {@code floe serve --log-format json}: one JSON object per line, a request's lines with its id. */
@FloeServerTest
class LogFormatTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void jsonLinesCarryTheRequestIdOfTheRequestTheyBelongTo(TestFloe floe) throws Exception {
    TestFloe.Org org = floe.newOrg();
    PrintStream standardOut = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    // The tests' logback configuration keeps Floe's loggers at WARN.
    ch.qos.logback.classic.Logger accessLog = (ch.qos.logback.classic.Logger)
        LoggerFactory.getLogger("io.floe.access");
    ch.qos.logback.classic.Level level = accessLog.getLevel();
    accessLog.setLevel(ch.qos.logback.classic.Level.INFO);
    Encoder<ILoggingEvent> text = LogFormat.JSON.apply();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
              URI.create(floe.uri() + "/v1/" + org.warehouse() + "/namespaces"))
          .header("Authorization", "Bearer " + org.token())
          .header("X-Request-Id", "json-log-1").GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(200);

      JsonNode access = awaitLine(captured, line -> line.path("loggerName").asText()
          .equals("io.floe.access")).orElseThrow(() -> new AssertionError(
              "no JSON access-log line in: " + captured.toString(StandardCharsets.UTF_8)));
      assertThat(access.path("level").asText()).isEqualTo("INFO");
      assertThat(access.path("mdc").path("request_id").asText()).isEqualTo("json-log-1");
      assertThat(access.path("formattedMessage").asText())
          .startsWith("GET /iceberg/v1/{prefix}/namespaces 200 ");
      assertThat(access.path("timestamp").asLong()).isPositive();
    } finally {
      System.setOut(standardOut);
      LogFormat.restore(text);
      accessLog.setLevel(level);
    }
  }

  @Test
  void theShippedConfigurationLoadsWithoutComplaints() throws Exception {
    // Logback prints its whole status list at start when a configuration warns: a page of noise
    // before Floe's first line. The tests run with their own configuration, so this one is
    // loaded into a context of its own.
    LoggerContext context = new LoggerContext();
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    try {
      configurator.doConfigure(LogFormatTest.class.getResource("/logback.xml"));
      List<String> complaints = context.getStatusManager().getCopyOfStatusList().stream()
          .filter(status -> status.getLevel() >= Status.WARN).map(Status::getMessage).toList();
      assertThat(complaints).isEmpty();
    } finally {
      context.stop();
    }
  }

  /**
   * A value a client chose (a table name with a line separator, say) is logged on the line of the
   * message that names it, in messages and in the messages of exceptions alike.
   */
  @Test
  void textLinesEscapeEverythingThatCouldStartALineOfItsOwn() throws Exception {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    PrintStream standardOut = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      configurator.doConfigure(LogFormatTest.class.getResource("/logback.xml"));
      org.slf4j.Logger log = context.getLogger("io.floe.test");
      String hostile = "orders\u2028\n00:00:00.000 INFO  io.floe.access - forged"
          + "\r\u0085\u2029\u001b[2J";
      log.warn("table {} refused", hostile);
      log.error("commit failed", new IllegalStateException("no table " + hostile,
          new IllegalArgumentException("cause " + hostile)));
    } finally {
      System.setOut(standardOut);
      context.stop();
    }
    String text = captured.toString(StandardCharsets.UTF_8);
    assertThat(text).doesNotContain("\r", "\u0085", "\u2028", "\u2029", "\u001b");
    List<String> lines = List.of(text.split("\n"));
    assertThat(lines).filteredOn(line -> line.contains("forged")).hasSize(3)
        .allSatisfy(line -> assertThat(line).contains("orders\\u2028\\n00:00:00.000 INFO  "
            + "io.floe.access - forged\\r\\u0085\\u2029\\u001b[2J"));
    assertThat(lines).anySatisfy(line -> assertThat(line).contains(" WARN  io.floe.test - table "
        + "orders"));
    assertThat(lines).anySatisfy(line -> assertThat(line)
        .startsWith("java.lang.IllegalStateException: no table orders"));
    assertThat(lines).anySatisfy(line -> assertThat(line)
        .startsWith("Caused by: java.lang.IllegalArgumentException: cause orders"));
    assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("\tat io.floe."));
  }

  @Test
  void textIsTheDefaultAndLeavesThePatternAsItIs() {
    Encoder<ILoggingEvent> before = LogFormat.TEXT.apply();
    assertThat(LogFormat.TEXT.apply()).isSameAs(before);
  }

  private static Optional<JsonNode> awaitLine(ByteArrayOutputStream captured,
      java.util.function.Predicate<JsonNode> wanted) throws InterruptedException {
    AtomicReference<Optional<JsonNode>> found = new AtomicReference<>(Optional.empty());
    try {
      await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(20)).pollInSameThread().until(() -> {
            found.set(lines(captured).stream().filter(wanted).findFirst());
            return found.get().isPresent();
          });
    } catch (ConditionTimeoutException e) {
      // Not logged in time: the caller's assertion says what was missing.
    }
    return found.get();
  }

  /** Every captured line; each must be one JSON object. */
  private static List<JsonNode> lines(ByteArrayOutputStream captured) {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : captured.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      try {
        JsonNode node = JSON.readTree(line);
        assertThat(node.isObject()).as(line).isTrue();
        lines.add(node);
      } catch (IOException e) {
        throw new AssertionError("not a JSON line: " + line, e);
      }
    }
    return lines;
  }
}
