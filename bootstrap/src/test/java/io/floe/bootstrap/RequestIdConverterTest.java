package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import io.floe.adapters.rest.http.RequestTracing;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The server's own {@code logback.xml}: a line logged during a request names the request. */
class RequestIdConverterTest {
  @Test
  void aRequestsLinesCarryItsIdInBracketsAndOtherLinesNothing() throws Exception {
    Encoder<ch.qos.logback.classic.spi.ILoggingEvent> encoder = serverConsoleEncoder();

    String during = line(encoder, Map.of(RequestTracing.MDC_KEY, "req-42"));
    String outside = line(encoder, Map.of());

    assertThat(during).contains("INFO  i.floe.bootstrap.Example [req-42] - committed\n");
    assertThat(outside).contains("INFO  i.floe.bootstrap.Example - committed\n").doesNotContain("[");
  }

  @SuppressWarnings("unchecked")
  private static Encoder<ch.qos.logback.classic.spi.ILoggingEvent> serverConsoleEncoder()
      throws Exception {
    URL config = RequestIdConverterTest.class.getResource("/logback.xml");
    assertThat(config).as("the server's logback.xml").isNotNull();
    LoggerContext context = new LoggerContext();
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    configurator.doConfigure(config);
    return ((OutputStreamAppender<ch.qos.logback.classic.spi.ILoggingEvent>) context
        .getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender(LogFormat.CONSOLE))
        .getEncoder();
  }

  private static String line(Encoder<ch.qos.logback.classic.spi.ILoggingEvent> encoder,
      Map<String, String> mdc) {
    LoggingEvent event = new LoggingEvent();
    event.setLoggerName("io.floe.bootstrap.Example");
    event.setLevel(Level.INFO);
    event.setMessage("committed");
    event.setTimeStamp(System.currentTimeMillis());
    event.setMDCPropertyMap(mdc);
    return new String(encoder.encode(event), StandardCharsets.UTF_8);
  }
}
