package io.floe.bootstrap;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import org.slf4j.LoggerFactory;

/**
 * How the server writes its log on standard output: lines for people (the pattern in
 * {@code logback.xml}), or one JSON object per line for log collectors, with the level, logger,
 * thread, time, the formatted message, any exception, and the MDC, where a request's lines carry
 * its id as {@code request_id}.
 */
enum LogFormat {
  TEXT,
  JSON;

  /** The appender {@code logback.xml} writes the console log with. */
  static final String CONSOLE = "CONSOLE";

  /**
   * Switches the console log to this format; returns the encoder it replaced, for {@link
   * #restore}. A logback configuration of the user's own, without Floe's console appender, is
   * left as it is.
   */
  Encoder<ILoggingEvent> apply() {
    OutputStreamAppender<ILoggingEvent> console = console();
    if (console == null || this == TEXT) {
      return console == null ? null : console.getEncoder();
    }
    Encoder<ILoggingEvent> previous = console.getEncoder();
    JsonEncoder json = new JsonEncoder();
    json.setContext(console.getContext());
    json.setWithSequenceNumber(false);
    json.setWithNanoseconds(false);
    json.setWithContext(false);
    // The message as written, not its template and arguments apart.
    json.setWithMessage(false);
    json.setWithArguments(false);
    json.setWithFormattedMessage(true);
    json.start();
    replaceEncoder(console, json);
    return previous;
  }

  /** Puts back the encoder {@link #apply} replaced. */
  static void restore(Encoder<ILoggingEvent> encoder) {
    OutputStreamAppender<ILoggingEvent> console = console();
    if (console != null && encoder != null && console.getEncoder() != encoder) {
      replaceEncoder(console, encoder);
    }
  }

  private static void replaceEncoder(OutputStreamAppender<ILoggingEvent> console,
      Encoder<ILoggingEvent> encoder) {
    console.stop();
    console.setEncoder(encoder);
    console.start();
  }

  @SuppressWarnings("unchecked")
  private static OutputStreamAppender<ILoggingEvent> console() {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return null;
    }
    return context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender(CONSOLE)
        instanceof OutputStreamAppender<?> appender
        ? (OutputStreamAppender<ILoggingEvent>) appender : null;
  }
}
