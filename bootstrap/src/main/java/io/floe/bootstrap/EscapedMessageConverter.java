package io.floe.bootstrap;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * {@code %escapedMessage} in the text log's pattern: the message with its arguments, every
 * character that could start a line of its own escaped ({@link LogText}).
 */
public final class EscapedMessageConverter extends ClassicConverter {
  @Override
  public String convert(ILoggingEvent event) {
    return LogText.escape(event.getFormattedMessage());
  }
}
