package io.floe.adapters.persistence.embedded;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** What the embedded PostgreSQL's classes log while a test runs. */
final class LogCapture implements AutoCloseable {
  private final Logger logger = (Logger) LoggerFactory.getLogger("io.floe.adapters.persistence");
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Level level = logger.getLevel();

  LogCapture() {
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.INFO);
  }

  List<String> lines() {
    return appender.list.stream().map(event -> event.getLevel() + " " + event.getFormattedMessage())
        .toList();
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    logger.setLevel(level);
  }
}
